import { z } from 'zod';
import {
  AchievementType,
  CameraType,
  DeviceCategory,
  DeviceKind,
  DeviceProtocol,
  DeviceTypeState,
  ExecutionType,
  FinishAction,
  HeightType,
  LinkType,
  MissionType,
  NoFlyShape,
  OnlineStatus,
  PhotoType,
  RecordState,
  RecordingVrType,
  TakePhoto,
  TimedTaskDataState,
  TimedTaskState,
  VideoStream,
  WhiteBalance,
} from './enums.js';
import { enumValue } from './form.js';

/** Entity shapes of SPEC section 3 as they travel in call responses. */

export const companyRef = z.object({ id: z.string(), name: z.string() });

/** The signed-in user as stored locally under `userInfo` (token included). */
export const userSchema = z.object({
  u_id: z.string(),
  nick: z.string(),
  phone: z.string(),
  email: z.string(),
  company: z.string(),
  in_com: companyRef,
  fun_list: z.array(z.string()),
  state: z.number().int(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  team: z.string(),
  notes: z.string(),
  /** Never the password itself: always empty in responses (kept for the SPEC's field list). */
  password: z.literal(''),
  token: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const functionItemSchema = z.object({
  name: z.string(),
  name_en: z.string(),
  fun_id: z.string(),
  description: z.string(),
  state: z.number().int(),
  notes: z.string(),
});
export type FunctionItem = z.infer<typeof functionItemSchema>;

/*
 * ---------------------------------------------------------------------------------------------------
 * Entities added for the device, planning and administration screens. Conventions:
 * - Field names are snake_case as the SPEC writes them; where the SPEC only describes a field the chosen
 *   name is documented beside it.
 * - Coordinates are WGS84 decimal degrees ({lat, lng}) everywhere in data; maps in GCJ-02 convert at
 *   the map boundary (see @nest/geo).
 * - Times are Unix seconds; ids are strings.
 * - Enumerated fields accept exactly the values of the enumeration named beside them (enums.ts).
 */

const id = () => z.string();
const seconds = () => z.number().int().nonnegative();

/** A WGS84 position in decimal degrees. */
export const latLngSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type LatLng = z.infer<typeof latLngSchema>;

/** One page of a list call: `list` (the SPEC's deviceList reads it) and `total`, the count of all matches. */
export const pageOf = <T extends z.ZodTypeAny>(item: T) => z.object({ list: z.array(item), total: z.number().int().nonnegative() });
export interface Page<T> {
  list: T[];
  total: number;
}

/** Azimuth (heading) of a nest in degrees 0-360; -1 means not set / invalid (SPEC section 5). */
export const AZIMUTH_INVALID = -1;
export const azimuthSchema = z.number().refine((v) => v === AZIMUTH_INVALID || (v >= 0 && v <= 360), {
  message: 'azimuth must be -1 or 0 to 360',
});
export const isAzimuthValid = (azimuth: number | null | undefined): azimuth is number =>
  typeof azimuth === 'number' && azimuth >= 0 && azimuth <= 360;

/**
 * Precision-landing beacon parameters (SPEC: "beacon parameters"; their content is not given). Our
 * reading: the surveyed position of the landing beacon at the airport, height in metres above sea level.
 */
export const beaconSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  height: z.number().finite(),
});
export type Beacon = z.infer<typeof beaconSchema>;

/**
 * A device: a nest with its drone, or a single-soldier drone.
 * - `airport_name`: airport (nest) name; `uav_name`: drone name.
 * - `sn_id`: SN of the nest (for a single-soldier drone, of the drone); `uav_sn`: SN of the drone.
 * - `address`: deployment address; `uav_model`: drone model.
 * - `altn_point`: alternate landing point; `airport_point`: airport coordinate (both WGS84, null when unset).
 * - `state`: online status (OnlineStatus); `enabled`: false once disabled ("disabled devices cannot be
 *   operated again").
 */
export const deviceSchema = z.object({
  id: id(),
  type: enumValue(DeviceCategory),
  link_type: enumValue(LinkType),
  /** DeviceProtocol: how it speaks on the device link (1 nest protocol, 2 DJI Cloud API). */
  protocol: enumValue(DeviceProtocol),
  airport_name: z.string(),
  uav_name: z.string(),
  sn_id: z.string(),
  uav_sn: z.string(),
  address: z.string(),
  uav_model: z.string(),
  description: z.string(),
  azimuth: azimuthSchema,
  altn_point: latLngSchema.nullable(),
  airport_point: latLngSchema.nullable(),
  beacon: beaconSchema.nullable(),
  company: z.string(),
  state: enumValue(OnlineStatus),
  enabled: z.boolean(),
  create_time: seconds(),
});
export type Device = z.infer<typeof deviceSchema>;

/** A row of the equipment list; `state` is the online status, `is_push_on` whether telemetry push is on. */
export const equipmentListItemSchema = z.object({
  id: id(),
  sn_id: z.string(),
  name: z.string(),
  state: enumValue(OnlineStatus),
  is_push_on: z.boolean(),
});
export type EquipmentListItem = z.infer<typeof equipmentListItemSchema>;

/** Live details of one device; the first entry of `stream_uav_list` is the drone video url. */
export const equipmentInfoSchema = z.object({
  sn_id: z.string(),
  stream_uav_list: z.array(z.string()),
});
export type EquipmentInfo = z.infer<typeof equipmentInfoSchema>;
export const droneVideoUrl = (info: Pick<EquipmentInfo, 'stream_uav_list'>): string | null =>
  info.stream_uav_list[0] || null;

/**
 * Camera defaults reported by a drone camera: SD card size (MB), ISO, shutter (one of SHUTTER_OPTIONS),
 * exposure mode (camera-defined code), exposure compensation (EV), white balance (WhiteBalance).
 */
export const cameraDefaultsSchema = z.object({
  sdcard_totalsize: z.number().nonnegative(),
  camera_iso: z.number().int().nonnegative(),
  camera_shutter: z.string(),
  camera_exp_mode: z.number().int(),
  camera_exp_value: z.number(),
  camera_awb: enumValue(WhiteBalance),
});
export type CameraDefaults = z.infer<typeof cameraDefaultsSchema>;

/** Waypoint limits (SPEC sections 5 and 9). */
export const WAYPOINT_LIMITS = {
  yawMin: 0,
  yawMax: 360,
  gimbalMin: -180,
  gimbalMax: 180,
  hoverMin: 0,
  hoverMax: 255,
  /** Metres; heights must be above 0. */
  heightMax: 10_000,
  /** m/s; speeds must be above 0. */
  speedMax: 30,
  maxWaypoints: 2000,
} as const;

/** Widest strip route corridor (m), centred on its line. */
export const CORRIDOR_WIDTH_MAX_M = 5000;

/**
 * Flight time one route may take (s, the stored est_time: take-off, the flight to the first waypoint, the
 * route and the return home): 25 minutes. A dock drone flies about 40 minutes on a full battery; the
 * pre-flight endurance check (flight.ts PREFLIGHT: 2 % a minute, 20 % reserve) lets a 25-minute route
 * take off from 70 % charge, so a dock that has not fully recharged between the parts of a split survey
 * can still fly the next one. Area surveys and strip routes longer than this are split into parts flown
 * one after another (/mission/add `split`). One figure for every device type: the devices do not report
 * their battery capacity.
 */
export const ROUTE_FLIGHT_BUDGET_S = 25 * 60;

/** Gimbal attitude to set at a waypoint, degrees. */
export const gimbalCtrlSchema = z.object({
  pitch: z.number().min(WAYPOINT_LIMITS.gimbalMin).max(WAYPOINT_LIMITS.gimbalMax),
  yaw: z.number().min(WAYPOINT_LIMITS.gimbalMin).max(WAYPOINT_LIMITS.gimbalMax),
});

/**
 * A waypoint (WGS84) with its actions. Absent actions are not performed:
 * - `uav_yaw`: aircraft heading 0-360 degrees; `hover`: hover seconds 0-255;
 * - `takephoto`: TakePhoto (0 none, 1 photo, 2 panorama: only one of photo or panorama);
 * - `gimbal_ctrl`: gimbal pitch/yaw -180..180; `speed`: m/s from this waypoint on (> 0);
 * - `cam_trig_dist`: take a photo every so many metres from here on (0 stops).
 * `height` is in the route's HeightType reference and must be above 0.
 */
export const waypointSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  height: z.number().gt(0).max(WAYPOINT_LIMITS.heightMax),
  uav_yaw: z.number().min(WAYPOINT_LIMITS.yawMin).max(WAYPOINT_LIMITS.yawMax).optional(),
  hover: z.number().int().min(WAYPOINT_LIMITS.hoverMin).max(WAYPOINT_LIMITS.hoverMax).optional(),
  takephoto: enumValue(TakePhoto).optional(),
  gimbal_ctrl: gimbalCtrlSchema.optional(),
  speed: z.number().gt(0).max(WAYPOINT_LIMITS.speedMax).optional(),
  cam_trig_dist: z.number().min(0).max(10_000).optional(),
});
export type Waypoint = z.infer<typeof waypointSchema>;

/**
 * The settings of a task (route) without its identity, shared by the mission entity and the add/edit
 * calls. Names chosen for the SPEC's descriptions:
 * - `name` task name; `fence_id` fence; `mission_type` task type (MissionType);
 * - `auto_speed` auto cruise speed and `max_speed` (m/s); `default_height`, `return_height` (m);
 * - `finish_action` action after completion; `exec_type` execution type;
 * - `camera_type`; for a custom camera `sensor_width`/`sensor_height` (mm), `image_width`/`image_height`
 *   (px) and `focal_length` (mm);
 * - `course_overlap` (front) and `lateral_overlap` (side) in percent; `turn_distance` (m) run-out beyond
 *   each survey line; `angle` grid direction in degrees;
 * - `elevation`: heights follow the terrain, computed before saving; `interval_height` (m) is the
 *   terrain-following tolerance: with `elevation`, a survey line gets an extra waypoint wherever the ground
 *   under the straight line between two waypoints would put the aircraft more than this many metres off its
 *   height above ground (0: the planner's default of 1 m, geo surveyWaypoints); without `elevation` it
 *   is unused. QGroundControl calls it TerrainAdjustTolerance. `photo_type`.
 */
export const missionSettingsSchema = z.object({
  name: z.string().min(1).max(64),
  fence_id: z.string(),
  mission_type: enumValue(MissionType),
  height_type: enumValue(HeightType),
  auto_speed: z.number().gt(0).max(WAYPOINT_LIMITS.speedMax),
  max_speed: z.number().gt(0).max(WAYPOINT_LIMITS.speedMax),
  default_height: z.number().gt(0).max(WAYPOINT_LIMITS.heightMax),
  return_height: z.number().gt(0).max(WAYPOINT_LIMITS.heightMax),
  finish_action: enumValue(FinishAction),
  exec_type: enumValue(ExecutionType),
  camera_type: enumValue(CameraType),
  sensor_width: z.number().gt(0).max(100).nullable(),
  sensor_height: z.number().gt(0).max(100).nullable(),
  image_width: z.number().int().gt(0).max(100_000).nullable(),
  image_height: z.number().int().gt(0).max(100_000).nullable(),
  focal_length: z.number().gt(0).max(1000).nullable(),
  course_overlap: z.number().min(0).max(99),
  lateral_overlap: z.number().min(0).max(99),
  turn_distance: z.number().min(0).max(1000),
  angle: z.number().min(0).max(360),
  interval_height: z.number().min(0).max(WAYPOINT_LIMITS.heightMax),
  elevation: z.boolean(),
  photo_type: enumValue(PhotoType),
  waypoints: z.array(waypointSchema).max(WAYPOINT_LIMITS.maxWaypoints),
});
export type MissionSettings = z.infer<typeof missionSettingsSchema>;

/**
 * A task (route). Besides its settings: `f_title` fence name, `distance` route length (m), `est_time`
 * estimated flight time (s), `user_name` its author.
 */
export const missionSchema = missionSettingsSchema.extend({
  id: id(),
  f_title: z.string(),
  distance: z.number().nonnegative(),
  est_time: z.number().nonnegative(),
  user_name: z.string(),
  create_time: seconds(),
  modified_time: seconds(),
  /** Area surveys: the area the server generated the waypoints from. */
  survey_polygon: z.array(latLngSchema).nullable().optional(),
  /** The waypoint an interrupted run resumes from (null or absent when none; /mission/clearBreak forgets it). */
  breakpoint: z.number().int().nonnegative().nullable().optional(),
  /** Strip routes: the centre line and the corridor width (m) the server generated the waypoints from. */
  corridor_line: z.array(latLngSchema).nullable().optional(),
  corridor_width: z.number().positive().nullable().optional(),
  /**
   * A part of a survey split by battery: the group's id shared by its parts, this part's number (1-based)
   * and the number of parts; null for a route of its own.
   */
  group_id: z.string().nullable().optional(),
  group_index: z.number().int().positive().nullable().optional(),
  group_count: z.number().int().positive().nullable().optional(),
  /**
   * Of a group's parts, the id of the one that flies next: the first not flown to its end since the whole
   * group was last flown (starting a flight with any part flies this one). Null outside a group.
   */
  group_next: z.string().nullable().optional(),
});
export type Mission = z.infer<typeof missionSchema>;

/** A work fence: `max_height` (m), `boundary` (>= 3 WGS84 points, open ring), `sn_id` the bound device. */
export const fenceSchema = z.object({
  id: id(),
  name: z.string(),
  max_height: z.number().gt(0),
  boundary: z.array(latLngSchema).min(3),
  sn_id: z.string(),
  create_time: seconds(),
});
export type Fence = z.infer<typeof fenceSchema>;

/** Longest side of a no-fly circle, metres (a circle of 50 km radius is a region, not a zone). */
export const NO_FLY_RADIUS_MAX_M = 50_000;

/**
 * A company's no-fly zone: an area its routes must keep out of (a school, a substation, a crowd), beside
 * the public map zones. Checked when a route is saved, at takeoff and when a timed task fires; survey
 * grids are split around it.
 * - `shape` NoFlyShape: a polygon has `boundary` (open WGS84 ring, >= 3 points) and null centre and
 *   radius; a circle has `center` and `radius` (m, > 0, <= NO_FLY_RADIUS_MAX_M) and an empty boundary;
 * - `sn_id`: '' applies to every device of the company, else only to routes flown by that device (the
 *   device bound to the route's fence);
 * - `valid_from` / `valid_to` (unix seconds, inclusive): null is open-ended; outside the period the zone
 *   is drawn (dashed) but does not restrict; `active` says whether it restricts now (server clock);
 * - `reason` free text shown with every refusal the zone causes.
 */
export const noFlyZoneSchema = z.object({
  id: id(),
  name: z.string(),
  reason: z.string(),
  shape: enumValue(NoFlyShape),
  boundary: z.array(latLngSchema),
  center: latLngSchema.nullable(),
  radius: z.number().positive().max(NO_FLY_RADIUS_MAX_M).nullable(),
  sn_id: z.string(),
  valid_from: seconds().nullable(),
  valid_to: seconds().nullable(),
  active: z.boolean(),
  user_name: z.string(),
  create_time: seconds(),
  modified_time: seconds(),
});
export type NoFlyZone = z.infer<typeof noFlyZoneSchema>;

/**
 * A polygon drawn on the map (e.g. a no-fly or restricted zone): `paths` WGS84 ring, colours as CSS
 * colour strings, `stroke_width` in px, `type` a zone kind code defined by the zone service.
 */
export const zonePolygonSchema = z.object({
  id: id(),
  type: z.number().int(),
  paths: z.array(latLngSchema).min(3),
  stroke_color: z.string(),
  solid_color: z.string(),
  stroke_width: z.number().nonnegative(),
});
export type ZonePolygon = z.infer<typeof zonePolygonSchema>;

/**
 * A zone as the zones resource (/api/static/zones.json) lists it: the polygon, its kind (`type`, contracts
 * ZoneType: 1 no-fly, 2 restricted, 3 work) and its name in both languages.
 */
export const zoneSchema = zonePolygonSchema.extend({
  name: z.object({ zh: z.string(), en: z.string() }),
});
export type Zone = z.infer<typeof zoneSchema>;

/** The zones resource: the kinds with their labels, then the zones. */
export const zonesAnswerSchema = z.object({
  types: z.array(z.object({ value: z.number().int(), label: z.object({ zh: z.string(), en: z.string() }) })),
  list: z.array(zoneSchema),
});
export type ZonesAnswer = z.infer<typeof zonesAnswerSchema>;

/** A device marker on the map; `state` is the online status. Position in WGS84. */
export const mapMarkerSchema = z.object({
  id: id(),
  name: z.string(),
  state: enumValue(OnlineStatus),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type MapMarker = z.infer<typeof mapMarkerSchema>;

/**
 * A timed task: `f_title` fence name, `m_title` task (route) name, `sn_id` device, `task_tms` next
 * planned run (s), `task_state` (TimedTaskState), `state` the data state (TimedTaskDataState).
 * Added: `mission_id`, `fence_id` (what runs), `interval` repeat period in minutes (0 runs once, else at
 * least TIMED_TASK_MIN_INTERVAL_MIN).
 */
export const timedTaskSchema = z.object({
  id: id(),
  f_title: z.string(),
  m_title: z.string(),
  mission_id: z.string(),
  fence_id: z.string(),
  sn_id: z.string(),
  task_tms: seconds(),
  interval: z.number().int().nonnegative(),
  task_state: enumValue(TimedTaskState),
  state: enumValue(TimedTaskDataState),
  create_time: seconds(),
});
export type TimedTask = z.infer<typeof timedTaskSchema>;

/**
 * A row of /task/list (and the /task/add, /task/edit answers): the task plus who planned it, the latest
 * run (`last_run` s, null before the first; `last_outcome` a language-neutral key, `outcome_text` it in
 * the caller's language) and `next_run` (null when no run is ahead: paused, deleted, or a once task done).
 */
export const timedTaskRowSchema = timedTaskSchema.extend({
  u_id: z.string(),
  user_name: z.string(),
  last_run: seconds().nullable(),
  last_outcome: z.string(),
  outcome_text: z.string(),
  next_run: seconds().nullable(),
  modified_time: seconds(),
});
export type TimedTaskRow = z.infer<typeof timedTaskRowSchema>;

/**
 * A sortie (one flight), as /sorties/list answers it: SPEC fields (times in s, end_time 0 while flying,
 * `count` results produced, `mission_type` MissionType or 0 for one-key flights) plus the device name,
 * metres flown, where it came down (AlternatePlace, null while flying), the route and the device's flight id.
 */
export const sortieSchema = z.object({
  sort_id: z.string(),
  mission_name: z.string(),
  sn_id: z.string(),
  device_name: z.string(),
  uav_id: z.string(),
  mission_type: z.number().int(),
  user_name: z.string(),
  start_time: seconds(),
  end_time: seconds(),
  count: z.number().int().nonnegative(),
  distance: z.number().nonnegative(),
  place: z.number().int().nullable(),
  mission_id: z.string().nullable(),
  flight_id: z.string(),
});
export type Sortie = z.infer<typeof sortieSchema>;

/**
 * An achievement (result) file, as /result/list answers it. The SPEC does not give its fields; ours:
 * `type` AchievementType, `url` the file and `thumb_url` its preview (both signed paths under /media/s/ that
 * expire after hours: a list read again renews them),
 * `size` bytes, `width`/`height` pixels, `duration` s (videos), where it was taken (WGS84; `altitude` m
 * above takeoff), the waypoint that took it, `taken_at` ms, `create_time` s (arrival).
 */
export const resultSchema = z.object({
  id: id(),
  sort_id: z.string().nullable(),
  sn_id: z.string(),
  device_name: z.string(),
  type: enumValue(AchievementType),
  file_name: z.string(),
  url: z.string(),
  thumb_url: z.string(),
  mime: z.string(),
  size: z.number().nonnegative(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration: z.number().nullable(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  altitude: z.number(),
  waypoint_index: z.number().int().nullable(),
  taken_at: z.number().int(),
  create_time: seconds(),
});
export type ResultItem = z.infer<typeof resultSchema>;

/**
 * An alternate-landing record as /alternate/list answers it: `reason` code (1 to 3), `solution` the code
 * of what was done, `timestamp` when it happened (s). `drone_int`, `altn_int` and `place_int` are integer
 * codes the device reports (drone state, alternate-landing state, landing place); their meaning is not
 * given by the SPEC. Added: the flight it ended (`flight_id`) and where it came down (WGS84).
 */
export const alternateLandingSchema = z.object({
  id: id(),
  sn_id: z.string(),
  flight_id: z.string(),
  reason: z.number().int(),
  solution: z.number().int(),
  timestamp: seconds(),
  lat: z.number(),
  lng: z.number(),
  drone_int: z.number().int(),
  altn_int: z.number().int(),
  place_int: z.number().int(),
  create_time: seconds(),
});
export type AlternateLanding = z.infer<typeof alternateLandingSchema>;

/**
 * An entry of the device-type catalogue: `cla_type` the device kind code (DeviceKind), `cla_name` its
 * display name, `value` the type key (DeviceTypeKey or an added key), `stream` number of video streams
 * (0 to 3), `state` DeviceTypeState.
 */
export const deviceTypeSchema = z.object({
  id: id(),
  cla_type: enumValue(DeviceKind),
  cla_name: z.string(),
  value: z.string(),
  stream: enumValue(VideoStream),
  state: enumValue(DeviceTypeState),
  notes: z.string(),
  create_time: seconds(),
  modified_time: seconds(),
});
export type DeviceType = z.infer<typeof deviceTypeSchema>;

/**
 * A firmware package: `type` FirmwareType (17 nest); added: `file_name`, `size_kb`, `md5`, `sha256`, `modified_time`
 * and `url` (an administrator's download link, valid for hours; devices download with their own credentials).
 */
export const firmwareSchema = z.object({
  id: id(),
  type: z.number().int(),
  version_code: z.number().int().nonnegative(),
  version_name: z.string(),
  state: enumValue(RecordState),
  description: z.string(),
  description_en: z.string(),
  file_name: z.string(),
  size_kb: z.number().nonnegative(),
  md5: z.string(),
  /** Added: SHA-256 of the whole file (lower-case hex), what a device verifies after downloading. */
  sha256: z.string(),
  url: z.string(),
  create_time: seconds(),
  modified_time: seconds(),
});
export type Firmware = z.infer<typeof firmwareSchema>;

/**
 * A department; `parent_id` is '' for a top-level department. Added: `company_id` (departments of one
 * company form one tree), `sort` (order among siblings), `member_count` (users in state 10 whose `team` is
 * this department), `create_time`.
 */
export const departmentSchema = z.object({
  id: id(),
  parent_id: z.string(),
  name: z.string(),
  description: z.string(),
  notes: z.string(),
  state: enumValue(RecordState),
  company_id: z.string(),
  sort: z.number().int(),
  member_count: z.number().int().nonnegative(),
  create_time: seconds(),
});
export type Department = z.infer<typeof departmentSchema>;

/** A department with its sub-departments, as /team/list answers them. */
export type DepartmentNode = Department & { children: DepartmentNode[] };
export const departmentNodeSchema: z.ZodType<DepartmentNode> = z.lazy(() =>
  departmentSchema.extend({ children: z.array(departmentNodeSchema) }),
);

/**
 * A row of /user/list: the user (password always '', token always '') plus `team_name` (the department's
 * name, '' when none or gone) and `create_time`.
 */
export const userListItemSchema = userSchema.extend({
  team_name: z.string(),
  create_time: seconds(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

/** A recording of a nest's outside camera; `url` (added) plays it. */
export const recordingVideoSchema = z.object({
  id: id(),
  sn_id: z.string(),
  thumb_url: z.string(),
  vr_type: enumValue(RecordingVrType),
  start_time: seconds(),
  end_time: seconds(),
  file_name: z.string(),
  size_kb: z.number().nonnegative(),
  url: z.string(),
});
export type RecordingVideo = z.infer<typeof recordingVideoSchema>;

/** A teaching video; `preview_url` is the playable video, `describe` its description. */
export const teachingVideoSchema = z.object({
  id: id(),
  preview_url: z.string(),
  title: z.string(),
  describe: z.string(),
  notes: z.string(),
  /** Added: the device kind the video teaches (DeviceKind; 0 for every kind). */
  cla_type: z.number().int().nonnegative(),
  /** Added: a poster frame ('' when none could be made), the file, its size and length (null when unknown). */
  poster_url: z.string(),
  file_name: z.string(),
  mime: z.string(),
  size_kb: z.number().nonnegative(),
  duration: z.number().nonnegative().nullable(),
  state: enumValue(RecordState),
  create_time: seconds(),
  modified_time: seconds(),
});
export type TeachingVideo = z.infer<typeof teachingVideoSchema>;

/** A member of a collaboration group as a group row names it (members may belong to other companies). */
export const groupMemberSchema = z.object({ u_id: z.string(), nick: z.string(), company: z.string() });
export type GroupMember = z.infer<typeof groupMemberSchema>;

/** A device of a collaboration group with its live online status (OnlineStatus), for the details view. */
export const groupDeviceSchema = z.object({ sn_id: z.string(), name: z.string(), type: enumValue(DeviceCategory), state: enumValue(OnlineStatus) });
export type GroupDevice = z.infer<typeof groupDeviceSchema>;

/**
 * A collaboration group: `create_time` creation time, `device_count` devices in it, `online_count`
 * of them online (live, from the device status board), `state` RecordState; added: `device_ids`,
 * `user_ids` (members: they see the devices on their map and device list, without control), `users`
 * (the members named), `notes`, `company` (the company whose devices the group shares), `creator` (nick).
 * /com/getOne adds `devices` with each device's live status.
 */
export const collaborationGroupSchema = z.object({
  id: id(),
  name: z.string(),
  notes: z.string(),
  company: z.string(),
  creator: z.string(),
  create_time: seconds(),
  device_count: z.number().int().nonnegative(),
  online_count: z.number().int().nonnegative(),
  state: enumValue(RecordState),
  device_ids: z.array(z.string()),
  user_ids: z.array(z.string()),
  users: z.array(groupMemberSchema),
  devices: z.array(groupDeviceSchema).optional(),
});
export type CollaborationGroup = z.infer<typeof collaborationGroupSchema>;

/**
 * A row of /device/list: the registry fields plus what the console shows live. `state` is the online
 * status (1 online, 2 offline, 3 connected by someone); `connected_by` names who holds control;
 * `position` is the last known WGS84 position (nest, or the drone when flying); `stream_uav_list`'s first
 * entry is the drone video url (on this server a signed path valid for an hour or two: read the list again
 * for a fresh one).
 */
export const deviceListItemSchema = deviceSchema.extend({
  name: z.string(),
  is_push_on: z.boolean(),
  connected_by: z.object({ u_id: z.string(), nick: z.string() }).nullable(),
  position: latLngSchema.nullable(),
  stream_uav_list: z.array(z.string()),
  /** Seen through a collaboration group of another company: visible, not controllable. */
  shared: z.boolean().optional(),
});
export type DeviceListItem = z.infer<typeof deviceListItemSchema>;

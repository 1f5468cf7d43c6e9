/**
 * The DJI Cloud API as the emulated dock speaks it, taken from DJI's own definitions (the thing model of
 * Cloud API 1.10 as summarised in DJI-CLOUD-API.md, DJI's demo SDK class names in the comments), not from
 * this project's server or contracts: the emulator is how an adapter gets checked against the document.
 */

/** Topics of a gateway `gw` (dock or RC) and of a device `sn` it carries (section 1). */
export const djiTopic = {
  status: (gw: string) => `sys/product/${gw}/status`,
  statusReply: (gw: string) => `sys/product/${gw}/status_reply`,
  osd: (sn: string) => `thing/product/${sn}/osd`,
  state: (sn: string) => `thing/product/${sn}/state`,
  stateReply: (sn: string) => `thing/product/${sn}/state_reply`,
  services: (gw: string) => `thing/product/${gw}/services`,
  servicesReply: (gw: string) => `thing/product/${gw}/services_reply`,
  events: (gw: string) => `thing/product/${gw}/events`,
  eventsReply: (gw: string) => `thing/product/${gw}/events_reply`,
  requests: (gw: string) => `thing/product/${gw}/requests`,
  requestsReply: (gw: string) => `thing/product/${gw}/requests_reply`,
  propertySet: (gw: string) => `thing/product/${gw}/property/set`,
  propertySetReply: (gw: string) => `thing/product/${gw}/property/set_reply`,
  drcUp: (gw: string) => `thing/product/${gw}/drc/up`,
  drcDown: (gw: string) => `thing/product/${gw}/drc/down`,
} as const;

/**
 * What a DJI gateway may publish and subscribe to (section 1): its own topics, and osd/state of the drone
 * it carries. A broker's per-device ACL for a DJI login; the emulator's tests hold it to this.
 */
export function djiPublishAllowed(gw: string, drone: string, topic: string): boolean {
  const mine = [
    djiTopic.status(gw),
    djiTopic.osd(gw),
    djiTopic.state(gw),
    djiTopic.events(gw),
    djiTopic.requests(gw),
    djiTopic.servicesReply(gw),
    djiTopic.propertySetReply(gw),
    djiTopic.drcUp(gw),
    djiTopic.osd(drone),
    djiTopic.state(drone),
  ];
  return mine.includes(topic);
}

export function djiSubscribeAllowed(gw: string, topic: string): boolean {
  const mine = [
    djiTopic.statusReply(gw),
    djiTopic.services(gw),
    djiTopic.eventsReply(gw),
    djiTopic.requestsReply(gw),
    djiTopic.stateReply(gw),
    djiTopic.propertySet(gw),
    djiTopic.drcDown(gw),
  ];
  return mine.includes(topic);
}

/** Model keys `domain-type-sub_type` (DeviceEnum) and the camera payload index of the drone. */
export const DOCK2 = { domain: 3, type: 2, subType: 0, key: '3-2-0', thingVersion: '1.2.0' } as const;
export const M3D = { domain: 0, type: 91, subType: 0, key: '0-91-0', payloadIndex: '80-0-0', thingVersion: '1.2.0' } as const;
export const M30 = { domain: 0, type: 67, subType: 0, key: '0-67-0', payloadIndex: '52-0-0', thingVersion: '1.2.0' } as const;
export const RC_PLUS = { domain: 2, type: 119, subType: 0, key: '2-119-0', thingVersion: '1.2.0' } as const;

/** Dock `mode_code` (DockModeCodeEnum). */
export const DockMode = { idle: 0, onSiteDebug: 1, remoteDebug: 2, upgrading: 3, working: 4 } as const;
/** Drone `mode_code` (DroneModeCodeEnum). */
export const DroneMode = { standby: 0, takeoffPrep: 1, takeoffPrepDone: 2, manual: 3, autoTakeoff: 4, wayline: 5, autoRth: 9, autoLanding: 10 } as const;
/** `cover_state` / `putter_state` (CoverStateEnum, PutterStateEnum). */
export const Cover = { closed: 0, open: 1, halfOpen: 2, abnormal: 3 } as const;
/** Dock `flighttask_step_code`. */
export const TaskStep = { preparing: 0, flying: 1, recovery: 2, idle: 5 } as const;
/** `current_step` of flighttask_progress (ExecutionStepEnum), the steps this dock goes through. */
export const ExecStep = { openCover: 7, downloadKmz: 14, startWayline: 20, inFlight: 21, landing: 23, closeCover: 24, exitWorkMode: 25 } as const;
/** `wayline_mission_state`. */
export const WaylineState = { preparing: 2, dronePreparing: 4, atFirstWaypoint: 5, executing: 6, paused: 7, recovering: 8, finished: 9 } as const;
/** flighttask_progress `status`; the last six are terminal. */
export type ProgressStatus = 'sent' | 'in_progress' | 'paused' | 'ok' | 'partially_done' | 'failed' | 'canceled' | 'rejected' | 'timeout';
export const TERMINAL_STATUSES: readonly ProgressStatus[] = ['ok', 'partially_done', 'failed', 'canceled', 'rejected', 'timeout'];

/** Result codes (WaylineErrorCodeEnum, CommonErrorEnum, ControlErrorCodeEnum, LiveErrorCodeEnum). */
export const DjiCode = {
  ok: 0,
  md5Empty: 314002,
  badFormat: 314003,
  md5Mismatch: 314005,
  kmzUnobtainable: 314013,
  notIdle: 319001,
  unknownTask: 319003,
  busy: 319016,
  /** Return home asked of an aircraft that is not airborne. */
  notAirborne: 316024,
  /** The mission ended because the user asked the aircraft to return home. */
  userRth: 322283,
  /** Bad parameter (CommonErrorEnum); also the answer to a method this dock does not know. */
  badParameter: 325001,
  noAircraft: 513001,
  alreadyLive: 513003,
  notLive: 513011,
  badUrlType: 513013,
} as const;

/** `droneInfo` of a WPML file for the M3D (droneEnumValue/droneSubEnumValue). */
export const M3D_DRONE_INFO = { droneEnumValue: 91, droneSubEnumValue: 0 } as const;

/** HMS `level` and `module` (section 8). */
export type HmsLevel = 0 | 1 | 2;
export type HmsModule = 0 | 1 | 2 | 3;

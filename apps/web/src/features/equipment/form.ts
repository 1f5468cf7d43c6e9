import {
  AZIMUTH_INVALID,
  DJI_MODELS,
  DeviceKind,
  DeviceProtocol,
  SERVER_MQTT_USER,
  SN_PATTERN,
  type CallFields,
  type Device,
  type DeviceProtocolValue,
  type DeviceTypeKeyValue,
  type LatLng,
} from '@nest/contracts';

/**
 * The equipment form and its mapping to /device/add and /device/edit. The rules mirror the registry
 * (contracts calls.ts deviceFields) and the server's own checks (apps/server/src/devices/admin.ts), so
 * the form says what is wrong before sending; the server checks again.
 */

/** Text limits of the registry's device fields. */
export const LIMITS = { name: 64, sn: 64, address: 255, model: 64, description: 500 } as const;

/** Where a point on the map goes. */
export type PointTarget = 'airport_point' | 'altn_point' | 'beacon';

export interface BeaconValues {
  lat: number | null;
  lng: number | null;
  height: number | null;
}

export interface DeviceFormValues {
  /** DeviceProtocol: chosen when adding, fixed afterwards. */
  protocol: DeviceProtocolValue;
  type: DeviceTypeKeyValue;
  link_type: 1 | 2 | 3;
  airport_name: string;
  uav_name: string;
  sn_id: string;
  uav_sn: string;
  address: string;
  uav_model: string;
  description: string;
  /** Degrees 0-360; null = not set (sent as -1). */
  azimuth: number | null;
  airport_point: LatLng | null;
  altn_point: LatLng | null;
  /** All three or none. */
  beacon: BeaconValues;
  /** Company id; '' = the caller's own. */
  company: string;
}

export type FormField = keyof DeviceFormValues | 'beacon.lat' | 'beacon.lng' | 'beacon.height';

/** What is wrong with a field: a key under `equipment.invalid` of the catalogs. */
export type IssueKey =
  | 'required'
  | 'snPattern'
  | 'serverName'
  | 'tooLong'
  | 'azimuth'
  | 'lat'
  | 'lng'
  | 'beaconPartial'
  | 'nestPoint'
  | 'aloneLink';

export type FormIssues = Partial<Record<FormField, IssueKey>>;

export const isDji = (v: Pick<DeviceFormValues, 'protocol'>): boolean => v.protocol === DeviceProtocol.DJI;

/** The drone models a DJI dock carries (contracts dji.ts), offered in the model field besides free text. */
export const DJI_MODEL_NAMES: readonly string[] = DJI_MODELS.filter((m) => m.domain === 0).map((m) => m.name);

export const isNest = (type: DeviceTypeKeyValue): boolean => type !== 'alone';

const NO_BEACON: BeaconValues = { lat: null, lng: null, height: null };

export function emptyForm(type: DeviceTypeKeyValue = 'stable'): DeviceFormValues {
  return {
    protocol: DeviceProtocol.NEST,
    type,
    link_type: isNest(type) ? 1 : 3,
    airport_name: '',
    uav_name: '',
    sn_id: '',
    uav_sn: '',
    address: '',
    uav_model: '',
    description: '',
    azimuth: null,
    airport_point: null,
    altn_point: null,
    beacon: NO_BEACON,
    company: '',
  };
}

/** The form of a stored device (edit). */
export function formFromDevice(d: Device): DeviceFormValues {
  return {
    protocol: d.protocol,
    type: d.type,
    link_type: d.link_type,
    airport_name: d.airport_name,
    uav_name: d.uav_name,
    sn_id: d.sn_id,
    uav_sn: d.uav_sn,
    address: d.address,
    uav_model: d.uav_model,
    description: d.description,
    azimuth: d.azimuth === AZIMUTH_INVALID ? null : d.azimuth,
    airport_point: d.airport_point,
    altn_point: d.altn_point,
    beacon: d.beacon ? { ...d.beacon } : NO_BEACON,
    company: d.company,
  };
}

/**
 * Changing the type: a single-soldier drone has no nest fields (they are cleared, and a nest-side link
 * becomes auto); its airport point stays as its take-off place.
 */
export function withType(v: DeviceFormValues, type: DeviceTypeKeyValue): DeviceFormValues {
  if (isNest(type)) return { ...v, type };
  return { ...v, type, airport_name: '', altn_point: null, beacon: NO_BEACON, azimuth: null, link_type: v.link_type === 1 ? 3 : v.link_type };
}

const beaconEmpty = (b: BeaconValues) => b.lat === null && b.lng === null && b.height === null;
const latOk = (lat: number) => Number.isFinite(lat) && lat >= -90 && lat <= 90;
const lngOk = (lng: number) => Number.isFinite(lng) && lng >= -180 && lng <= 180;

/** Every problem of the form, by field (empty when it may be sent). */
export function formIssues(v: DeviceFormValues): FormIssues {
  const issues: FormIssues = {};
  const sn = v.sn_id.trim();
  if (!sn) issues.sn_id = 'required';
  else if (!SN_PATTERN.test(sn)) issues.sn_id = 'snPattern';
  else if (sn === SERVER_MQTT_USER) issues.sn_id = 'serverName';
  const uavSn = v.uav_sn.trim();
  if (uavSn && !SN_PATTERN.test(uavSn)) issues.uav_sn = 'snPattern';
  // A DJI dock's gateway names its docked drone: the adapter and the broker's rights need its SN.
  else if (!uavSn && isDji(v)) issues.uav_sn = 'required';
  if (!v.uav_name.trim()) issues.uav_name = 'required';
  else if (v.uav_name.trim().length > LIMITS.name) issues.uav_name = 'tooLong';
  if (v.airport_name.trim().length > LIMITS.name) issues.airport_name = 'tooLong';
  if (v.address.trim().length > LIMITS.address) issues.address = 'tooLong';
  if (v.uav_model.trim().length > LIMITS.model) issues.uav_model = 'tooLong';
  if (v.description.trim().length > LIMITS.description) issues.description = 'tooLong';
  if (v.azimuth !== null && !(v.azimuth === AZIMUTH_INVALID || (v.azimuth >= 0 && v.azimuth <= 360))) issues.azimuth = 'azimuth';
  for (const key of ['airport_point', 'altn_point'] as const) {
    const p = v[key];
    if (p && (!latOk(p.lat) || !lngOk(p.lng))) issues[key] = !latOk(p.lat) ? 'lat' : 'lng';
  }
  const b = v.beacon;
  if (!beaconEmpty(b)) {
    if (b.lat === null || b.lng === null || b.height === null) issues.beacon = 'beaconPartial';
    if (b.lat !== null && !latOk(b.lat)) issues['beacon.lat'] = 'lat';
    if (b.lng !== null && !lngOk(b.lng)) issues['beacon.lng'] = 'lng';
  }
  if (isNest(v.type)) {
    if (!v.airport_name.trim()) issues.airport_name = 'required';
    if (!v.airport_point) issues.airport_point = 'nestPoint';
  } else if (v.link_type === 1) {
    issues.link_type = 'aloneLink';
  }
  return issues;
}

export type DeviceCallFields = CallFields<'deviceAdd'>;

/**
 * The fields of /device/add (with `id`: /device/edit). Every field is sent, empty ones as '' (an edit
 * replaces the whole device); points and the beacon travel as JSON; azimuth not set is -1. A
 * single-soldier drone sends no nest fields. `company` only when chosen (super administrator).
 */
export function callFieldsOf(v: DeviceFormValues): DeviceCallFields;
export function callFieldsOf(v: DeviceFormValues, id: string): CallFields<'deviceEdit'>;
export function callFieldsOf(v: DeviceFormValues, id?: string): DeviceCallFields | CallFields<'deviceEdit'> {
  const nest = isNest(v.type);
  const b = v.beacon;
  const beacon = nest && b.lat !== null && b.lng !== null && b.height !== null ? JSON.stringify({ lat: b.lat, lng: b.lng, height: b.height }) : '';
  const fields: DeviceCallFields = {
    type: v.type,
    link_type: v.link_type,
    airport_name: nest ? v.airport_name.trim() : '',
    uav_name: v.uav_name.trim(),
    sn_id: v.sn_id.trim(),
    uav_sn: v.uav_sn.trim(),
    address: v.address.trim(),
    uav_model: v.uav_model.trim(),
    description: v.description.trim(),
    azimuth: nest && v.azimuth !== null ? v.azimuth : AZIMUTH_INVALID,
    airport_point: v.airport_point ? JSON.stringify(v.airport_point) : '',
    altn_point: nest && v.altn_point ? JSON.stringify(v.altn_point) : '',
    beacon,
    company: v.company,
  };
  // The protocol is chosen once: an edit leaves it as it is.
  return id === undefined ? { ...fields, protocol: v.protocol } : { id, ...fields };
}

/** The /device/list `type` filter for a kind chosen in the screen's filter (0: all). */
export const kindFilterOptions = (lang: 'zh' | 'en', all: string) => [{ value: 0, label: all }, ...DeviceKind.options(lang)];

import {
  DjiResult,
  commandReasonText,
  djiDockOsd,
  djiDroneOsd,
  djiEnvelope,
  djiFlighttaskProgress,
  djiHms,
  djiModel,
  djiUpdateTopo,
  hmsKey,
  parseDjiTopic,
  topoModelKey,
} from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { flightStateOf, healthOf, mergeOsd, progressOf, telemetryOf } from './translate.js';

const dockOsd = (d: unknown) => djiDockOsd.parse(d);
const droneOsd = (d: unknown) => djiDroneOsd.parse(d);

describe('DJI wire (contracts)', () => {
  it('parses topics of gateways and drones, and nothing else', () => {
    expect(parseDjiTopic('sys/product/DOCK1/status')).toEqual({ sn: 'DOCK1', channel: 'status' });
    expect(parseDjiTopic('thing/product/DRONE1/osd')).toEqual({ sn: 'DRONE1', channel: 'osd' });
    expect(parseDjiTopic('thing/product/DOCK1/property/set_reply')).toEqual({ sn: 'DOCK1', channel: 'property/set_reply' });
    expect(parseDjiTopic('thing/product/DOCK1/services')).toBeNull();
    expect(parseDjiTopic('thing/product/+/osd')).toBeNull();
    expect(parseDjiTopic('nest/v1/DOCK1/telemetry')).toBeNull();
  });

  it('reads update_topo with numeric strings and unknown keys; an empty sub_devices list is kept', () => {
    const topo = djiUpdateTopo.parse({ domain: '3', type: '2', sub_type: '0', extra: { x: 1 }, sub_devices: [{ sn: 'D', domain: '0', type: 91, sub_type: '0', future: true }] });
    expect(topoModelKey(topo)).toBe('3-2-0');
    expect(topoModelKey(topo.sub_devices[0]!)).toBe('0-91-0');
    expect(djiUpdateTopo.parse({ sub_devices: [] }).sub_devices).toEqual([]);
    expect(djiEnvelope.safeParse({ tid: 't', bid: 'b', need_reply: 1, data: {} }).success).toBe(true);
    expect(djiEnvelope.safeParse({ bid: 'b' }).success).toBe(false);
  });

  it('knows the models and their WPML values; an unknown model is not an error', () => {
    expect(djiModel('0-91-1')?.drone).toEqual({ droneEnumValue: 91, droneSubEnumValue: 1 });
    expect(djiModel('M4D')?.drone).toEqual({ droneEnumValue: 100, droneSubEnumValue: 0 });
    expect(djiModel('0-91-0')?.payload).toEqual({ payloadEnumValue: 80, payloadPositionIndex: 0 });
    expect(djiModel('9-9-9')).toBeUndefined();
  });

  it('names the HMS text key by the device domain and in_the_sky', () => {
    expect(hmsKey({ code: '0x160900BF', device_type: '3-2-0' })).toBe('dock_tip_0x160900BF');
    expect(hmsKey({ code: '0x16100083', device_type: '0-91-0', in_the_sky: 1 })).toBe('fpv_tip_0x16100083_in_the_sky');
    expect(hmsKey({ code: '0x16100083', device_type: '0-91-0', in_the_sky: 0 })).toBe('fpv_tip_0x16100083');
  });

  it('gives DJI result codes their own operator texts in both languages', () => {
    expect(commandReasonText(DjiResult.MD5_MISMATCH, 'en')).toMatch(/MD5 mismatch/);
    expect(commandReasonText(DjiResult.MD5_MISMATCH, 'zh')).toMatch(/MD5 不匹配/);
    expect(commandReasonText(DjiResult.UNSUPPORTED, 'en')).toMatch(/does not support/);
  });
});

describe('DJI OSD -> contracts telemetry', () => {
  const base = dockOsd({
    latitude: 22.5,
    longitude: 113.9,
    height: 40,
    cover_state: 0,
    putter_state: 0,
    drone_charge_state: { state: 1, capacity_percent: 88 },
    sub_device: { device_sn: 'DRONE1', device_model_key: '0-91-0', device_online_status: 1 },
    wind_speed: 3.5,
    rainfall: 0,
    environment_temperature: 21,
    humidity: 55,
  });

  it('merges partial messages: a missing key keeps its value, nested objects merge', () => {
    let known = mergeOsd(undefined, base);
    known = mergeOsd(known, dockOsd({ mode_code: 4, drone_charge_state: { state: 0 } }));
    expect(known.cover_state).toBe(0);
    expect(known.latitude).toBe(22.5);
    expect(known.mode_code).toBe(4);
    expect(known.drone_charge_state).toEqual({ state: 0, capacity_percent: 88 });
  });

  it('maps the dock to nest and the docked drone from the charge state before the drone reports', () => {
    const t = telemetryOf({ dock: base, droneSn: 'DRONE1', droneInTopo: true, flightTime: 0 });
    expect(t?.nest).toMatchObject({ lat: 22.5, lng: 113.9, hatch: 0, charger: 1, drone_power: 1 });
    expect(t?.nest?.env).toMatchObject({ wind_speed: 3.5, temperature: 21, humidity: 55, rainfall: 0 });
    expect(t?.drone).toMatchObject({ sn: 'DRONE1', battery: { percent: 88, charging: true }, powered: true });
  });

  it('maps the drone OSD: ellipsoid height to alt, elevation to height, mode, battery, RTK, storage in MB', () => {
    const drone = droneOsd({
      latitude: 22.501,
      longitude: 113.901,
      height: 140,
      elevation: 100,
      mode_code: 5,
      attitude_head: -90,
      horizontal_speed: 8,
      vertical_speed: 0.5,
      battery: { capacity_percent: 71, batteries: [{ index: 0, capacity_percent: 71, voltage: 15_800, temperature: 33 }] },
      position_state: { is_fixed: 2, rtk_number: 30, gps_number: 18 },
      storage: { total: 64 * 1024 * 1024, used: 16 * 1024 * 1024 },
    });
    const t = telemetryOf({ dock: mergeOsd(base, dockOsd({ cover_state: 1 })), drone, droneSn: 'DRONE1', droneInTopo: true, flightTime: 42.4 });
    expect(t?.nest?.hatch).toBe(1);
    expect(t?.drone).toMatchObject({
      lat: 22.501,
      alt: 140,
      height: 100,
      heading: 270,
      flight_state: 2,
      battery: { percent: 71, voltage: 15.8, temperature: 33 },
      rtk: { status: 4, satellites: 30 },
      gps_satellites: 18,
      storage: { sdcard_totalsize: 65536, sdcard_free: 49152 },
      flight_time: 42,
    });
  });

  it('an empty topology powers the drone off, not the dock', () => {
    const t = telemetryOf({ dock: base, droneSn: 'DRONE1', droneInTopo: false, flightTime: 0 });
    expect(t?.nest?.drone_power).toBe(0);
    expect(t?.drone?.powered).toBe(false);
    expect(t?.drone?.flight_state).toBe(0);
  });

  it('rain levels become mm/h and nothing usable yet gives no telemetry', () => {
    expect(telemetryOf({ dock: mergeOsd(base, dockOsd({ rainfall: 3 })), droneSn: 'D', droneInTopo: true, flightTime: 0 })?.nest?.env.rainfall).toBeGreaterThan(10);
    expect(telemetryOf({ dock: dockOsd({ mode_code: 0 }), droneSn: 'D', droneInTopo: true, flightTime: 0 })).toBeNull();
  });

  it('drone mode codes map to flight states', () => {
    expect([0, 4, 5, 9, 10, 14].map(flightStateOf)).toEqual([4, 1, 2, 8, 3, 0]);
  });
});

describe('DJI events -> contracts events', () => {
  const plan = { flightId: 'F1', missionId: 'M1', missionName: 'route', waypointCount: 5, startIndex: 0 };
  const progress = (status: string, step: number, extra: Record<string, unknown> = {}, result = 0) =>
    djiFlighttaskProgress.parse({
      result,
      output: { status, progress: { current_step: step, percent: 40 }, ext: { flight_id: 'F1', current_waypoint_index: 2, wayline_mission_state: 6, media_count: 3, ...extra } },
    });

  it('in-flight progress is running and airborne; a pause is paused', () => {
    const v = progressOf(progress('in_progress', 21), plan, { distance: 120, time: 30 });
    expect(v).toMatchObject({ airborne: true, terminal: false });
    expect(v?.mission).toEqual({ flight_id: 'F1', mission_id: 'M1', state: 'running', waypoint_index: 2, waypoint_count: 5, percent: 40, distance_flown: 120, flight_time: 30, photos: 3 });
    expect(progressOf(progress('paused', 21, { wayline_mission_state: 7 }), plan, { distance: 0, time: 0 })?.mission.state).toBe('paused');
    expect(progressOf(progress('in_progress', 7), plan, { distance: 0, time: 0 })?.airborne).toBe(false);
  });

  it('terminal statuses: ok is done at the last waypoint, anything else interrupted', () => {
    expect(progressOf(progress('ok', 25), plan, { distance: 0, time: 0 })?.mission).toMatchObject({ state: 'done', waypoint_index: 5 });
    const failed = progressOf(progress('failed', 21, {}, 322283), plan, { distance: 0, time: 0 });
    expect(failed).toMatchObject({ terminal: true, result: 322283, mission: { state: 'interrupted', waypoint_index: 2 } });
  });

  it('hms becomes one health event with catalogue keys', () => {
    const h = healthOf(
      djiHms.parse({
        list: [
          { level: 2, module: 3, in_the_sky: 0, code: '0x160900BF', device_type: '3-2-0', imminent: 0, args: { component_index: 0, sensor_index: 0 } },
          { level: '1', module: 3, in_the_sky: 1, code: '0x16100083', device_type: '0-91-0' },
        ],
      }),
    );
    expect(h?.method).toBe('health');
    expect(h?.data.items).toEqual([
      { level: 2, module: 3, code: '0x160900BF', key: 'dock_tip_0x160900BF', in_the_sky: false, device_type: '3-2-0', args: { component_index: 0, sensor_index: 0 } },
      { level: 1, module: 3, code: '0x16100083', key: 'fpv_tip_0x16100083_in_the_sky', in_the_sky: true, device_type: '0-91-0' },
    ]);
    expect(healthOf(djiHms.parse({ list: [] }))?.data.items).toEqual([]);
  });
});

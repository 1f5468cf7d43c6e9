import { LinkMethod, djiData, djiDroneOsd, djiEnvelope, linkMessage, topicOf } from '@nest/contracts';
import { bench, describe } from 'vitest';
import { LinkService } from '../apps/server/src/link/nest/service.js';
import { DeviceModel } from '../apps/simulator/src/index.js';

/**
 * The device link's ingress, per telemetry message: a nest's telemetry (nest and drone, as the simulator
 * sends it) through the nest adapter's message handler (topic, registry, rate, envelope, schema, live
 * record) to its `telemetry` event. Baseline: JSON.parse of the same payload, in the same run; the whole
 * ingress should cost a small multiple of it.
 */
const SNS = Array.from({ length: 2000 }, (_, i) => `BENCH${String(i).padStart(5, '0')}`);
const topics = SNS.map((sn) => topicOf(sn, 'telemetry'));
const model = new DeviceModel({ kind: 'stable', uavSn: 'BENCHUAV', home: { lat: 31.23, lng: 121.47, alt: 12 } }, 7);
const payloads = SNS.map((_, i) =>
  Buffer.from(JSON.stringify(linkMessage(LinkMethod.TELEMETRY, model.telemetry(), { tid: `t-${i}`, ts: 1_763_769_600_000 + i }))),
);
const rows = new Map(SNS.map((sn) => [sn, { sn_id: sn, enabled: 1 }]));
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const link = new LinkService({ url: 'mqtt://127.0.0.1:1', username: 'bench', password: 'bench', devices: { get: (sn) => rows.get(sn), miss: () => null }, log: quiet });
let heard = 0;
link.on('telemetry', () => heard++);

let i = 0;
describe(`link ingress, one telemetry message (${payloads[0]!.byteLength} bytes), ${SNS.length} devices in turn`, () => {
  bench('baseline: JSON.parse of the payload', () => {
    JSON.parse(payloads[i]!.toString('utf8'));
    i = (i + 1) % SNS.length;
  });
  bench('nest adapter: message handler to the telemetry event', () => {
    link.receive(topics[i]!, payloads[i]!);
    i = (i + 1) % SNS.length;
  });
});

/**
 * A DJI drone's OSD as a dock relays it (Cloud API `thing/product/<drone sn>/osd`, parsed JSON): the
 * envelope and data checks the DJI adapter makes per message, compiled (djiData) beside zod's own parse of
 * the same schemas, in the same run. Real OSD carries more keys than the schema reads (kept, not checked).
 */
const djiOsd = JSON.stringify({
  tid: '6a7bfe89-c386-4043-b600-b518e10096cc',
  bid: '42a19f36-5117-4520-bd13-fd61d818d52e',
  timestamp: 1_763_769_600_000,
  gateway: '7CTDM7H00BG8M4',
  data: {
    mode_code: 5,
    latitude: 22.579,
    longitude: 113.938,
    height: 120.4,
    elevation: 84.2,
    attitude_head: -91.3,
    attitude_pitch: 0.2,
    attitude_roll: -0.1,
    horizontal_speed: 8.3,
    vertical_speed: 0,
    home_distance: 412.6,
    wind_speed: 3.1,
    wind_direction: 2,
    battery: {
      capacity_percent: 76,
      remain_flight_time: 1320,
      return_home_power: 22,
      landing_power: 10,
      batteries: [{ index: 0, capacity_percent: 76, voltage: 23160, temperature: 31.5, firmware_version: '01.02.0300', loop_times: 41, sn: '4BUPJ9KDA2B9', type: 0, sub_type: 0 }],
    },
    position_state: { is_calibration: 1, is_fixed: 2, quality: 5, gps_number: 18, rtk_number: 24 },
    storage: { total: 60_000_000, used: 21_000_000 },
    gear: 1,
    total_flight_time: 281_400,
    firmware_version: '10.01.0310',
    track_id: 'e8c1ad15-3f5b-4a7f-9a0c-2f3f1c61a1a0',
    distance_limit_status: { state: 0, distance_limit: 5000, is_near_distance_limit: 0 },
    obstacle_avoidance: { horizon: 1, upside: 1, downside: 1 },
  },
});
let dji = 0;
describe(`DJI drone OSD check, envelope and data (${Buffer.byteLength(djiOsd)} bytes of JSON, parsed anew each time)`, () => {
  bench('baseline: zod safeParse of the envelope and the OSD', () => {
    const env = djiEnvelope.safeParse(JSON.parse(djiOsd));
    if (env.success && djiDroneOsd.safeParse(env.data.data).success) dji++;
  });
  bench('DJI adapter: the compiled checks (djiData)', () => {
    const env = djiData.envelope(JSON.parse(djiOsd));
    if (env.success && djiData.droneOsd(env.data.data).success) dji++;
  });
});

// A message that did not reach the telemetry event would measure a drop, not the ingress.
process.on('exit', () => {
  if (heard === 0) throw new Error('link ingress bench: no telemetry event was emitted');
  if (dji === 0) throw new Error('link ingress bench: no DJI OSD passed its checks');
});

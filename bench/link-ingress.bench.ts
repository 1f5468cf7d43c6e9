import { LinkMethod, linkMessage, topicOf } from '@nest/contracts';
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

// A message that did not reach the telemetry event would measure a drop, not the ingress.
process.on('exit', () => {
  if (heard === 0) throw new Error('link ingress bench: no telemetry event was emitted');
});

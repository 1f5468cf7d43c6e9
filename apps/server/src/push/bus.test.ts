import { describe, expect, it } from 'vitest';
import { ClusterBus } from './bus.js';

/** Two buses joined by a loop-back transport, as two instances are joined by their broker. */
function pair() {
  const a = new ClusterBus();
  const b = new ClusterBus();
  const wire: string[] = [];
  const deliver = (payload: string) => {
    wire.push(payload);
    // The broker hands the message to every subscriber, the sender included.
    for (const bus of [a, b]) bus.receive(Buffer.from(payload));
  };
  a.connect({ publish: deliver });
  b.connect({ publish: deliver });
  return { a, b, wire };
}

describe('cluster bus', () => {
  it('applies a notice once on every instance, the sender included', () => {
    const { a, b, wire } = pair();
    const seen: string[] = [];
    a.on('changed', (n) => seen.push(`a:${n.companyId}:${n.topic}`));
    b.on('changed', (n) => seen.push(`b:${n.companyId}:${n.topic}`));
    a.send('changed', { companyId: 'wk', topic: 'alarms' });
    expect(seen).toEqual(['a:wk:alarms', 'b:wk:alarms']);
    expect(wire).toHaveLength(1);
  });

  it('share reaches the other instances only', () => {
    const { a, b } = pair();
    const seen: string[] = [];
    a.on('device', (n) => seen.push(`a:${n.sn}`));
    b.on('device', (n) => seen.push(`b:${n.sn}`));
    a.share('device', { sn: 'SN-1', msgId: 350, data: {} });
    expect(seen).toEqual(['b:SN-1']);
  });

  it('without a transport (one instance) applies locally and sends nothing', () => {
    const bus = new ClusterBus();
    const seen: unknown[] = [];
    bus.on('user', (n) => seen.push(n));
    bus.send('user', { userId: 'u1', msgId: 391, data: { p: 1 } });
    bus.share('user', { userId: 'u2', msgId: 391, data: {} });
    expect(seen).toEqual([{ userId: 'u1', msgId: 391, data: { p: 1 } }]);
    expect(bus.stats.sent).toBe(0);
  });

  it('rejects what is not a notice and applies nothing', () => {
    const bus = new ClusterBus();
    const seen: unknown[] = [];
    bus.on('alarm', (n) => seen.push(n));
    for (const bad of ['not json', '[]', 'null', '{"o":"x","k":"nope","n":{}}', '{"o":"x","k":"alarm","n":3}', '{"k":"alarm","n":{}}']) {
      bus.receive(Buffer.from(bad));
    }
    expect(seen).toEqual([]);
    expect(bus.stats.rejected).toBe(6);
  });

  it('stops calling a handler once it is removed', () => {
    const bus = new ClusterBus();
    let calls = 0;
    const off = bus.on('sortie', () => calls++);
    bus.send('sortie', { sn: 's', sortId: '1', flightId: 'f', missionName: '', open: true });
    off();
    bus.send('sortie', { sn: 's', sortId: '1', flightId: 'f', missionName: '', open: false });
    expect(calls).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { Histogram, canon, holds, msgIdOf, occurrences, replaceBlock, slope, snOf } from './stats.js';

describe('Histogram', () => {
  it('answers nearest-rank percentiles and the maximum', () => {
    const h = new Histogram(1000);
    for (let v = 1; v <= 100; v++) h.record(v);
    expect(h.count).toBe(100);
    expect([h.percentile(50), h.percentile(90), h.percentile(99), h.percentile(100)]).toEqual([50, 90, 99, 100]);
    expect(h.summary()).toBe('50 / 90 / 99 / 100');
  });

  it('rounds to whole ms, clamps negatives to 0, ignores non-finite values', () => {
    const h = new Histogram(10);
    h.record(-3);
    h.record(2.6);
    h.record(NaN);
    h.record(Infinity);
    expect(h.count).toBe(2);
    expect(h.percentile(50)).toBe(0);
    expect(h.percentile(100)).toBe(3);
  });

  it('keeps values past the cap in the last bucket but reports the true maximum', () => {
    const h = new Histogram(10);
    h.record(5);
    h.record(500);
    expect(h.percentile(100)).toBe(500);
    expect(h.max).toBe(500);
    expect(h.percentile(50)).toBe(5);
  });

  it('is empty until something is recorded', () => {
    const h = new Histogram(10);
    expect(h.percentile(50)).toBeNaN();
    expect(h.summary()).toBe('–');
  });

  it('merges histograms, also from their IPC data', () => {
    const a = new Histogram(100);
    const b = new Histogram(100);
    a.record(10);
    b.record(30);
    b.record(20);
    a.merge(Histogram.from(JSON.parse(JSON.stringify({ ...b.toData(), buckets: Array.from(b.toData().buckets) })) as never));
    expect(a.count).toBe(3);
    expect(a.summary()).toBe('20 / 30 / 30 / 30');
    expect(() => a.merge(new Histogram(50))).toThrow(/caps/);
  });
});

describe('slope', () => {
  it('is the least-squares slope', () => {
    expect(slope([{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 5 }])).toBeCloseTo(2);
    // Alternating noise: 3 / 17.5.
    expect(slope([{ x: 0, y: 10 }, { x: 1, y: 12 }, { x: 2, y: 10 }, { x: 3, y: 12 }, { x: 4, y: 10 }, { x: 5, y: 12 }])).toBeCloseTo(0.1714, 4);
    expect(slope([{ x: 0, y: 5 }, { x: 10, y: 0 }])).toBeCloseTo(-0.5);
  });

  it('is NaN without two distinct x', () => {
    expect(slope([])).toBeNaN();
    expect(slope([{ x: 1, y: 1 }])).toBeNaN();
    expect(slope([{ x: 1, y: 1 }, { x: 1, y: 2 }])).toBeNaN();
  });
});

describe('replaceBlock', () => {
  const B = '<!-- x:begin -->';
  const E = '<!-- x:end -->';
  it('replaces the block between the markers and keeps the text around it', () => {
    const doc = `# T\n\nbefore\n\n${B}\nold\n${E}\n\nafter\n`;
    expect(replaceBlock(doc, B, E, `${B}\nnew\n${E}`)).toBe(`# T\n\nbefore\n\n${B}\nnew\n${E}\n\nafter\n`);
  });

  it('appends the block when the document has none (or only an end marker before the begin)', () => {
    expect(replaceBlock('# T\n\n', B, E, `${B}\nnew\n${E}`)).toBe(`# T\n\n${B}\nnew\n${E}\n`);
    expect(replaceBlock(`${E}\n${B}`, B, E, 'S')).toBe(`${E}\n${B}\n\nS\n`);
  });
});

describe('holds (a device\'s last state against the server\'s)', () => {
  const sent = { gimbal: { pitch: -30, yaw: 0 }, flow: null, changed: { gimbal: 1 } };
  it('ignores key order at every level and fields the server adds', () => {
    expect(canon({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: 3 } })).toBe('{"a":{"c":3,"d":[2,{"x":0,"y":1}]},"b":1}');
    expect(holds(sent, { changed: { gimbal: 1 }, flow: null, gimbal: { yaw: 0, pitch: -30 }, extra: 'x' })).toBe(true);
  });
  it('fails on a changed, missing or absent state', () => {
    expect(holds(sent, { ...sent, gimbal: { pitch: 0, yaw: 0 } })).toBe(false);
    expect(holds(sent, { gimbal: sent.gimbal, changed: sent.changed })).toBe(false);
    expect(holds(sent, null)).toBe(false);
    expect(holds(sent, undefined)).toBe(false);
  });
});

describe('reading push frames without parsing them', () => {
  const frame = JSON.stringify({ code: 2000, msg: 'ok', msg_id: 300, data: { sn_id: 'BENCH-MINI-02', telemetry: { sn_id: 'other' } } });
  it('finds the msg_id and the first sn_id', () => {
    expect(msgIdOf(frame)).toBe(300);
    expect(msgIdOf('{"msg_id":310,"data":{}}')).toBe(310);
    expect(snOf(frame)).toBe('BENCH-MINI-02');
  });
  it('answers -1 / null when the head does not hold them', () => {
    expect(msgIdOf('{"code":2000}')).toBe(-1);
    expect(snOf('{"msg_id":300,"data":{"sn_id":"BENCH-MI')).toBeNull();
    expect(snOf('{"msg_id":101}')).toBeNull();
  });
  it('counts the entries of a batch on its bytes', () => {
    const batch = Buffer.from(JSON.stringify({ msg_id: 310, data: { devices: [{ sn_id: 'A' }, { sn_id: 'B' }, { sn_id: 'C' }] } }));
    expect(occurrences(batch, Buffer.from('"sn_id":'))).toBe(3);
    expect(occurrences(Buffer.from('{}'), Buffer.from('"sn_id":'))).toBe(0);
  });
});

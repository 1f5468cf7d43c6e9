import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { HOUR_MS, UPTIME_ROWS_PER_STATEMENT, UptimeRecorder, upsertUptime, type UptimeSource } from './uptime.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const H = Date.parse('2026-05-01T10:00:00Z');
const silent = { warn: () => undefined };
const stored = async (sn: string) =>
  (await server.db.selectFrom('device_uptime').select(['hour', 'seconds', 'company_id']).where('sn_id', '=', sn).orderBy('hour').execute()).map((r) => [
    Number(r.hour),
    Number(r.seconds),
  ]);

function source(online: Set<string>): UptimeSource {
  return {
    devices: () => [
      { sn_id: 'UP-A', company_id: 'wk' },
      { sn_id: 'UP-B', company_id: 'wk' },
      { sn_id: 'UP-C', company_id: 'gzGh' },
    ],
    isOnline: (sn) => online.has(sn),
  };
}

describe('uptime log', () => {
  it('upserts keep the larger value: repeating a write changes nothing', async () => {
    const { db, dbKind } = server.app.nest.deps;
    await upsertUptime(db, dbKind, [{ sn_id: 'UP-X', company_id: 'wk', hour: H, seconds: 100 }]);
    await upsertUptime(db, dbKind, [{ sn_id: 'UP-X', company_id: 'wk', hour: H, seconds: 100 }]);
    expect(await stored('UP-X')).toEqual([[H, 100]]);
    await upsertUptime(db, dbKind, [{ sn_id: 'UP-X', company_id: 'wk', hour: H, seconds: 40 }]);
    expect(await stored('UP-X')).toEqual([[H, 100]]);
    await upsertUptime(db, dbKind, [{ sn_id: 'UP-X', company_id: 'wk', hour: H, seconds: 3600 }]);
    expect(await stored('UP-X')).toEqual([[H, 3600]]);
  });

  it('credits online devices per UTC hour, split at the boundary; flushing twice stores the same', async () => {
    const { db, dbKind } = server.app.nest.deps;
    const online = new Set(['UP-A', 'UP-C']);
    const rec = new UptimeRecorder(db, dbKind, source(online), silent, undefined, H + 50 * 60_000);
    await rec.start();
    rec.sample(H + 59 * 60_000); // 9 min in hour H
    online.delete('UP-C');
    rec.sample(H + HOUR_MS + 6 * 60_000); // 1 min in H, 6 min in H+1 (A only)
    await rec.flush(H + HOUR_MS + 6 * 60_000);
    await rec.flush(H + HOUR_MS + 6 * 60_000);
    await rec.stop(H + HOUR_MS + 6 * 60_000);
    expect(await stored('UP-A')).toEqual([
      [H, 600],
      [H + HOUR_MS, 360],
    ]);
    expect(await stored('UP-C')).toEqual([[H, 540]]);
    expect(await stored('UP-B')).toEqual([]);
    const company = await db.selectFrom('device_uptime').select('company_id').where('sn_id', '=', 'UP-C').executeTakeFirstOrThrow();
    expect(company.company_id).toBe('gzGh');
  });

  it('a restarted instance continues its first hour; a second instance watching the same hour does not add to it', async () => {
    const { db, dbKind } = server.app.nest.deps;
    const H2 = H + 5 * HOUR_MS;
    await upsertUptime(db, dbKind, [{ sn_id: 'UP-B', company_id: 'wk', hour: H2, seconds: 1200 }]);
    const online = new Set(['UP-B']);
    // Restarted at H2 + 30 min: 1200 s were stored by the previous run.
    const restarted = new UptimeRecorder(db, dbKind, source(online), silent, undefined, H2 + 30 * 60_000);
    await restarted.start();
    restarted.sample(H2 + 40 * 60_000);
    await restarted.flush(H2 + 40 * 60_000);
    expect(await stored('UP-B')).toEqual([[H2, 1800]]);
    // An instance that watched the next hour whole alongside another: each stores its own count, the larger stays.
    const a = new UptimeRecorder(db, dbKind, source(online), silent, undefined, H2 + HOUR_MS - 1);
    const b = new UptimeRecorder(db, dbKind, source(online), silent, undefined, H2 + HOUR_MS - 1);
    await a.start();
    await b.start();
    a.sample(H2 + HOUR_MS + 10 * 60_000);
    await a.flush(H2 + HOUR_MS + 10 * 60_000);
    b.sample(H2 + HOUR_MS + 9 * 60_000);
    await b.flush(H2 + HOUR_MS + 9 * 60_000);
    expect((await stored('UP-B')).at(-1)).toEqual([H2 + HOUR_MS, 600]);
    await restarted.stop(H2 + 40 * 60_000);
    await a.stop(H2 + HOUR_MS + 10 * 60_000);
    await b.stop(H2 + HOUR_MS + 9 * 60_000);
  });

  it('flushes a large fleet in statements of a few hundred devices, letting the event loop run between them', async () => {
    const { db, dbKind } = server.app.nest.deps;
    const H4 = H + 20 * HOUR_MS;
    const count = 2 * UPTIME_ROWS_PER_STATEMENT + 50;
    const fleet = Array.from({ length: count }, (_, i) => ({ sn_id: `UP-F${String(i).padStart(4, '0')}`, company_id: 'wk' }));
    const rec = new UptimeRecorder(db, dbKind, { devices: () => fleet, isOnline: () => true }, silent, undefined, H4);
    await rec.start();
    rec.sample(H4 + 10 * 60_000);
    // Turns of the event loop (its check phase) that ran while the flush wrote.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const before = turns;
    await rec.flush(H4 + 10 * 60_000);
    ticking = false;
    // Three statements: the loop ran at least between them.
    expect(turns - before).toBeGreaterThanOrEqual(2);
    const rows = await db.selectFrom('device_uptime').select(['sn_id', 'seconds']).where('hour', '=', H4).execute();
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => Number(r.seconds)))).toEqual(new Set([600]));
    await rec.stop(H4 + 10 * 60_000);
  });

  it('never stores more than an hour', async () => {
    const { db, dbKind } = server.app.nest.deps;
    const H3 = H + 10 * HOUR_MS;
    await upsertUptime(db, dbKind, [{ sn_id: 'UP-C', company_id: 'gzGh', hour: H3, seconds: 3500 }]);
    const rec = new UptimeRecorder(db, dbKind, source(new Set(['UP-C'])), silent, undefined, H3 + 30 * 60_000);
    await rec.start();
    rec.sample(H3 + 50 * 60_000);
    await rec.flush(H3 + 50 * 60_000);
    await rec.stop(H3 + 50 * 60_000);
    expect((await stored('UP-C')).at(-1)).toEqual([H3, 3600]);
  });
});

/**
 * Fault: PostgreSQL is down for a few seconds while calls, commands and device events flow. Calls answer
 * at once with a clear, localised error (no hang, no crash), the server stays up, and once PostgreSQL is
 * back the same server answers again (its pool reconnects). A flight event the device sent during the
 * outage is not acknowledged while it cannot be stored, so the device sends it again and it is recorded.
 * The stack has a PostgreSQL of its own: the test stops it.
 */
import { CmdType, FlightMethod, PushMsgId, ResultCode, type LinkEnvelope } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_CONNECT_TIMEOUT_MS } from '../src/db/index.js';
import type { SimFleet } from '../test/simulator.js';
import type { PostgresCluster } from '../test/infra.js';
import { adminClient, type TestClient } from '../test/helpers.js';
import { hasMosquitto } from '../test/infra.js';
import { live, until, type PushSocket } from '../test/live.js';
import { request, startStack, type Stack } from './stack.js';

const SN = 'DB-1';
const AIRBORNE = [1, 2, 3, 8];

describe.runIf(hasMosquitto())('fault: database briefly unavailable', () => {
  let stack: Stack & { pg: PostgresCluster };
  let fleet: SimFleet;
  let admin: TestClient;
  let watch: PushSocket;

  beforeAll(async () => {
    stack = await startStack({ ownPostgres: true });
    fleet = await stack.fly([SN]);
    admin = await adminClient(stack.server);
    watch = await stack.socket(SN);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('calls fail clearly and fast, the server stays up and recovers, an event sent meanwhile is recorded', async () => {
    expect((await admin.call('sortiesList', { page: 1, limit: 10 })).body.code).toBe(ResultCode.OK);
    // Every flight.start of the device the server takes, and whether PostgreSQL was down then.
    let down = false;
    const starts: { tid: string; down: boolean }[] = [];
    live(stack.server).link.on('event', (sn: string, m: LinkEnvelope) => {
      if (sn === SN && m.method === FlightMethod.FLIGHT_START) starts.push({ tid: m.tid, down });
    });
    const r = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: CmdType.TAKEOFF, value: 0 });
    expect(r.code, JSON.stringify(r)).toBe(ResultCode.OK);
    await stack.pg.stop();
    down = true;
    try {
      // Calls: a clear error in the caller's language, at once: refused, not a connection left to time out.
      for (const lang of ['en', 'zh'] as const) {
        const t0 = Date.now();
        const res = await admin.call('sortiesList', { page: 1, limit: 10 }, { lang });
        expect(Date.now() - t0).toBeLessThan(DB_CONNECT_TIMEOUT_MS);
        expect(res.body.code, JSON.stringify(res.body)).toBe(ResultCode.SERVER_ERROR);
        expect(res.body.msg).toMatch(lang === 'en' ? /database/i : /数据库/);
      }
      // A command cannot be logged first, so it is not sent: a clear refusal, at once.
      const t0 = Date.now();
      const land = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: CmdType.RETURN });
      expect(Date.now() - t0).toBeLessThan(DB_CONNECT_TIMEOUT_MS);
      expect(land.code).not.toBe(ResultCode.OK);
      expect(land.msg).toMatch(/database/i);
      // The drone lifts off meanwhile: its flight.start reaches the server, which cannot store it.
      await until(() => starts.some((s) => s.down), 'the flight.start of the drone taken by the server during the outage');
      const simInAir = () => AIRBORNE.includes(fleet.devices()[0]!.telemetry().drone?.flight_state ?? -1);
      expect(simInAir()).toBe(true);
    } finally {
      await stack.pg.start();
      down = false;
    }
    // The same server answers again, without a restart.
    await until(async () => (await admin.call('sortiesList', { page: 1, limit: 10 })).body.code === ResultCode.OK, 'calls succeeding again');
    expect(live(stack.server).link.connected).toBe(true);
    // The event the server could not store was not acknowledged: the device re-sent it (the server took the
    // same tid again: an event it had stored would not be handed on twice) and it is recorded, once.
    await until(
      async () => (await stack.server.db.selectFrom('sorties').select('id').where('sn_id', '=', SN).execute()).length === 1,
      'the sortie of the flight that started during the outage',
    );
    const first = starts.find((s) => s.down)!;
    expect(starts.filter((s) => s.tid === first.tid).length).toBeGreaterThanOrEqual(2);
  });
});

/**
 * Fault: PostgreSQL is down for a few seconds while calls, commands and device events flow. Calls answer
 * at once with a clear, localised error (no hang, no crash), the server stays up, and once PostgreSQL is
 * back the same server answers again (its pool reconnects). A flight event the device sent during the
 * outage is not acknowledged while it cannot be stored, so the device sends it again and it is recorded.
 */
import { CmdType, PushMsgId, ResultCode } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimFleet } from '../src/link/simulator.js';
import { adminClient, type TestClient } from '../test/helpers.js';
import { hasMosquitto } from '../test/infra.js';
import { live, sleep, until, type PushSocket } from '../test/live.js';
import { request, startStack, type Stack } from './stack.js';

const SN = 'DB-1';
const AIRBORNE = [1, 2, 3, 8];

describe.runIf(hasMosquitto())('fault: database briefly unavailable', () => {
  let stack: Stack;
  let fleet: SimFleet;
  let admin: TestClient;
  let watch: PushSocket;

  beforeAll(async () => {
    stack = await startStack();
    fleet = await stack.fly([SN]);
    admin = await adminClient(stack.server);
    watch = await stack.socket(SN);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('calls fail clearly and fast, the server stays up and recovers, an event sent meanwhile is recorded', async () => {
    expect((await admin.call('sortiesList', { page: 1, limit: 10 })).body.code).toBe(ResultCode.OK);
    const r = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: CmdType.TAKEOFF, value: 0 });
    expect(r.code, JSON.stringify(r)).toBe(ResultCode.OK);
    await stack.pg.stop();
    try {
      // Calls: a clear error in the caller's language, at once.
      for (const lang of ['en', 'zh'] as const) {
        const t0 = Date.now();
        const res = await admin.call('sortiesList', { page: 1, limit: 10 }, { lang });
        expect(Date.now() - t0).toBeLessThan(10_000);
        expect(res.body.code, JSON.stringify(res.body)).toBe(ResultCode.SERVER_ERROR);
        expect(res.body.msg).toMatch(lang === 'en' ? /database/i : /数据库/);
      }
      // A command cannot be logged first, so it is not sent: a clear refusal, at once.
      const t0 = Date.now();
      const land = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: CmdType.RETURN });
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(land.code).not.toBe(ResultCode.OK);
      expect(land.msg).toMatch(/database/i);
      // The drone lifts off meanwhile: its flight.start reaches the server, which cannot store it.
      const simInAir = () => AIRBORNE.includes(fleet.devices()[0]!.telemetry().drone?.flight_state ?? -1);
      await until(simInAir, 30_000, 'airborne during the outage');
      await sleep(2000);
    } finally {
      await stack.pg.start();
    }
    // The same server answers again, without a restart.
    await until(async () => (await admin.call('sortiesList', { page: 1, limit: 10 })).body.code === ResultCode.OK, 10_000, 'calls succeed again');
    expect(live(stack.server).link.connected).toBe(true);
    // The event the server could not store was not acknowledged: the device re-sent it and it is recorded.
    await until(
      async () => (await stack.server.db.selectFrom('sorties').select('id').where('sn_id', '=', SN).execute()).length === 1,
      20_000,
      'the sortie of the flight that started during the outage',
    );
  });
});

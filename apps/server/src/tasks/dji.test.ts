// Database: SQLite only: the DJI path of a timed task (the scheduler's SQL runs on both in scheduler.test.ts).
/**
 * A timed task on a DJI dock: the scheduler (its clock injected, so the run is due without waiting) fires the
 * route through the flight runtime and the DJI adapter; the simulator's emulated Dock 2 downloads and checks
 * the kmz (flighttask_prepare), executes it and flies it to the end, as a nest flies a timed task.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimedTaskRow } from '../db/schema.js';
import { DJI_HOME, startDjiTestServer, startEmulatedDock } from '../link/dji/testing.js';
import { addPatrolRoute, listen, live, until } from '../../test/live.js';
import type { TestServer } from '../../test/helpers.js';
import { createScheduler } from './scheduler.js';

const GW = 'DJI-TASK1';
const quiet = { info: () => undefined, warn: () => undefined };

let server: TestServer;

beforeAll(async () => {
  server = await startDjiTestServer();
  // The dock downloads the route package over HTTP from the listening server.
  await listen(server);
});
afterAll(async () => {
  await server?.close();
});

describe('timed task on a DJI dock', () => {
  it('fires when due: flighttask_prepare with a kmz the dock accepts, then execute; the task is sent and the flight ends done', async () => {
    const dock = await startEmulatedDock(server, GW, { telemetry: true, seed: 7, timeScale: 100 });
    try {
      const route = await addPatrolRoute(server.db, GW, DJI_HOME);
      // Due a day from now on the wall clock: the app's own scheduler (real clock) leaves it alone; the test's
      // scheduler runs with its clock at that time.
      const due = Math.floor(Date.now() / 1000) + 24 * 3600;
      const row: TimedTaskRow = {
        id: randomUUID(),
        mission_id: route,
        fence_id: 'f',
        f_title: 'Fence',
        m_title: 'Sim patrol',
        sn_id: GW,
        company_id: 'wk',
        u_id: 'planner',
        user_name: 'Planner',
        task_tms: due,
        interval_min: 0,
        task_state: 1,
        state: 0,
        claimed_by: null,
        claimed_at: null,
        last_run: null,
        last_outcome: '',
        create_time: due - 3600,
        modified_time: due - 3600,
      };
      await server.db.insertInto('timed_tasks').values(row).execute();

      const prepared = new Promise<{ flight_id: string; waypoints: number }>((resolve) => dock.once('prepared', resolve));
      const ended = new Promise<{ flight_id: string; status: string }>((resolve) => dock.once('missionEnded', resolve));
      const scheduler = createScheduler({ db: server.db, flight: server.app.nest.flight, log: quiet, now: () => due });
      // Not due a second early.
      const early = createScheduler({ db: server.db, flight: server.app.nest.flight, log: quiet, now: () => due - 1 });
      expect(await early.tick()).toBe(0);
      expect(await scheduler.tick()).toBe(1);

      const task = await server.db.selectFrom('timed_tasks').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(task).toMatchObject({ task_state: 10, last_outcome: 'sent', last_run: due, claimed_by: null });
      const cmd = await server.db.selectFrom('command_log').selectAll().where('cmd_id', '=', `task-${row.id}-${due}`.slice(0, 64)).executeTakeFirstOrThrow();
      expect(cmd).toMatchObject({ source: 'task', sn_id: GW, outcome: 'ok' });
      const flightId = cmd.flight_id!;
      expect(flightId).toBeTruthy();

      // The dock downloaded the route package and accepted it (the emulator checks the kmz), then executed it.
      expect(await prepared).toMatchObject({ flight_id: flightId, waypoints: 6 });
      const methods = dock.commands.filter((c) => c.bid === flightId).map((c) => c.method);
      expect(methods.slice(0, 2)).toEqual(['flighttask_prepare', 'flighttask_execute']);

      expect(await ended).toMatchObject({ flight_id: flightId, status: 'ok' });
      await until(async () => {
        const sortie = await server.db.selectFrom('sorties').selectAll().where('flight_id', '=', flightId).executeTakeFirst();
        return sortie?.end_time !== null && sortie?.end_time !== undefined;
      }, 'the sortie of the timed task ended');
      const sortie = await server.db.selectFrom('sorties').selectAll().where('flight_id', '=', flightId).executeTakeFirstOrThrow();
      expect(sortie).toMatchObject({ mission_id: route, sn_id: GW });
      expect(live(server).link.device(GW)?.state?.mission).toMatchObject({ flight_id: flightId, state: 'done' });

      // The run is done: the next pass finds nothing due.
      expect(await scheduler.tick()).toBe(0);
    } finally {
      await dock.stop();
    }
  });
});

/**
 * Scheduler unit tests. The flight runtime is replaced by a test double here ON PURPOSE: FlightRuntime is
 * the seam between the scheduler and flight operations, and these tests are about claiming, the missed-run
 * policy and outcome mapping, not about flying. Two scheduler instances use two connections to one database.
 */
import { rm } from 'node:fs/promises';
import { Reason, type CommandReplyPush } from '@nest/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, tempDir, testConfig, type TestDatabase } from '../../test/helpers.js';
import { openDatabase, type Database } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';
import type { TimedTaskRow } from '../db/schema.js';
import type { Actor, CommandAnswer } from '../flight/types.js';
import { MISSED_AFTER_S, STALE_CLAIM_S } from './schedule.js';
import { createScheduler, outcomeOf } from './scheduler.js';
import { outcomeText } from './texts.js';

const NOW = 1_800_000_000;
const quiet = { info: () => undefined, warn: () => undefined };

let dir: string;
let database: TestDatabase;
let dbA: Database;
let dbB: Database;

/** A FlightRuntime double: records launches, answers what the test says (after a small delay). */
function fakeFlight(answer: (sn: string) => CommandAnswer | Error = () => ok(), gate?: (launched: () => void) => Promise<void>) {
  const launches: { actor: Actor; sn: string; missionId: string; cmdId?: string }[] = [];
  let launched: () => void = () => undefined;
  const started = new Promise<void>((r) => (launched = r));
  return {
    launches,
    /** Resolves at the first launch. */
    started,
    launchMission: async (actor: Actor, opts: { sn: string; missionId: string; cmdId?: string }) => {
      launches.push({ actor, ...opts });
      launched();
      await (gate ? gate(launched) : new Promise((r) => setTimeout(r, 20)));
      const a = answer(opts.sn);
      if (a instanceof Error) throw a;
      return a;
    },
    // Asked only after a launch refused for a zone (the scheduler's zoneNamed), which the real runtime tests cover.
    checks: async () => ({ ready: false, checks: [] }),
  };
}
const reply = (outcome: CommandReplyPush['outcome'], reason = 0): CommandReplyPush => ({ sn_id: 'S', cmd_id: 'c', outcome, reason });
const ok = (): CommandAnswer => ({ code: 2000, msg: '', data: reply('ok') });
const fail = (outcome: CommandReplyPush['outcome'], reason: number, msg: string): CommandAnswer => ({ code: 2002, msg, data: reply(outcome, reason) });

async function addTask(over: Partial<TimedTaskRow> = {}): Promise<TimedTaskRow> {
  const row: TimedTaskRow = {
    id: `t-${Math.random().toString(36).slice(2)}`,
    mission_id: 'm1',
    fence_id: 'f1',
    f_title: 'Fence',
    m_title: 'Route',
    sn_id: 'SN-1',
    company_id: 'wk',
    u_id: 'u1',
    user_name: 'Planner',
    task_tms: NOW - 5,
    interval_min: 0,
    task_state: 1,
    state: 0,
    claimed_by: null,
    claimed_at: null,
    last_run: null,
    last_outcome: '',
    create_time: NOW - 3600,
    modified_time: NOW - 3600,
    ...over,
  };
  await dbA.insertInto('timed_tasks').values(row).execute();
  return row;
}
const read = async (id: string) => dbA.selectFrom('timed_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  dir = await tempDir();
  database = await createTestDatabase();
  const config = testConfig(dir, database.url);
  dbA = openDatabase(config).db;
  await migrateToLatest(dbA);
  dbB = openDatabase(config).db;
});
afterAll(async () => {
  await dbA?.destroy();
  await dbB?.destroy();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await dbA.deleteFrom('timed_tasks').execute();
});

describe('scheduler claims', () => {
  it('fires a due task once even with two instances on one database', async () => {
    const task = await addTask();
    const flight = fakeFlight();
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => NOW });
    const b = createScheduler({ db: dbB, flight, log: quiet, instanceId: 'B', now: () => NOW });
    const counts = await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(1);
    expect(flight.launches).toHaveLength(1);
    expect(flight.launches[0]).toMatchObject({
      sn: 'SN-1',
      missionId: 'm1',
      actor: { u_id: 'u1', nick: 'Planner', company_id: 'wk', all: false, source: 'task' },
    });
    const row = await read(task.id);
    expect(row).toMatchObject({ task_state: 10, claimed_by: null, last_outcome: 'sent' });
    expect(Number(row.last_run)).toBe(NOW);
    // Finished: later passes leave it alone.
    await Promise.all([a.tick(), b.tick()]);
    expect(flight.launches).toHaveLength(1);
  });

  it('moves a repeating task to its next future slot and fires each slot once', async () => {
    const task = await addTask({ interval_min: 60, task_tms: NOW - 30 });
    const flight = fakeFlight();
    let now = NOW;
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => now });
    const b = createScheduler({ db: dbB, flight, log: quiet, instanceId: 'B', now: () => now });
    await Promise.all([a.tick(), b.tick()]);
    expect(flight.launches).toHaveLength(1);
    expect(Number((await read(task.id)).task_tms)).toBe(NOW - 30 + 3600);
    now = NOW + 3600;
    await Promise.all([b.tick(), a.tick()]);
    expect(flight.launches).toHaveLength(2);
    expect(Number((await read(task.id)).task_tms)).toBe(NOW - 30 + 7200);
    // One command id per run: a re-claimed run repeats its id (the flight runtime answers it from the
    // command log), a new slot gets a new one.
    expect(flight.launches[0]!.cmdId).toBe(`task-${task.id}-${NOW - 30}`);
    expect(flight.launches[1]!.cmdId).toBe(`task-${task.id}-${NOW - 30 + 3600}`);
  });

  it('leaves paused, deleted and future tasks and live claims alone; takes over a stale claim', async () => {
    await addTask({ task_state: 3 });
    await addTask({ state: 10 });
    await addTask({ task_tms: NOW + 60 });
    await addTask({ task_state: 10 });
    await addTask({ claimed_by: 'C', claimed_at: NOW - 30 });
    const stale = await addTask({ claimed_by: 'C', claimed_at: NOW - 121 });
    const flight = fakeFlight();
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => NOW });
    expect(await a.tick()).toBe(1);
    expect(flight.launches).toHaveLength(1);
    expect((await read(stale.id)).task_state).toBe(10);
  });
});

describe('edits during a run', () => {
  it('keeps a pause and a new time made while the launch was in flight', async () => {
    const task = await addTask({ interval_min: 60 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const flight = fakeFlight(undefined, () => held);
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => NOW });
    const pass = a.tick();
    // While the launch is in flight, an operator pauses the task and gives it a new time (/task/edit).
    await flight.started;
    await dbB.updateTable('timed_tasks').set({ task_state: 3, task_tms: NOW + 7200 }).where('id', '=', task.id).execute();
    release();
    await pass;
    expect(flight.launches).toHaveLength(1);
    const row = await read(task.id);
    expect(row).toMatchObject({ task_state: 3, claimed_by: null, last_outcome: 'sent' });
    expect(Number(row.task_tms)).toBe(NOW + 7200);
  });
});

describe('missed-run policy', () => {
  it('does not fly a run more than 10 minutes late, marks it 40 missed and schedules the next slot', async () => {
    const once = await addTask({ task_tms: NOW - 601 });
    const repeating = await addTask({ sn_id: 'SN-2', task_tms: NOW - 3 * 3600 - 700, interval_min: 60 });
    const onTime = await addTask({ sn_id: 'SN-3', task_tms: NOW - 599 });
    const flight = fakeFlight();
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => NOW });
    expect(await a.tick()).toBe(3);
    expect(flight.launches.map((l) => l.sn)).toEqual(['SN-3']);
    expect(await read(once.id)).toMatchObject({ task_state: 40, last_outcome: 'missed' });
    const r = await read(repeating.id);
    expect(r).toMatchObject({ task_state: 40, last_outcome: 'missed' });
    // The next slot of the series after now (3 h 11 min 40 s late with a 1 h period: 48 min 20 s ahead).
    expect(Number(r.task_tms)).toBe(NOW - 3 * 3600 - 700 + 4 * 3600);
    expect((await read(onTime.id)).task_state).toBe(10);
  });
});

describe('outcome mapping', () => {
  it('maps replies to task states and language-neutral outcome keys', () => {
    expect(outcomeOf(ok())).toEqual({ taskState: 10, text: 'sent' });
    expect(outcomeOf({ code: 2000, msg: '', data: reply('pending') }).taskState).toBe(10);
    expect(outcomeOf(fail('offline', 1, '设备不在线'))).toEqual({ taskState: 41, text: 'reply:offline:1' });
    expect(outcomeOf(fail('refused', 1, 'offline by checks')).taskState).toBe(41);
    expect(outcomeOf(fail('timeout', 14, '设备未在规定时间内响应'))).toEqual({ taskState: 40, text: 'reply:timeout:14' });
    expect(outcomeOf(fail('refused', 4, '飞机电量低于 50%'))).toEqual({ taskState: 40, text: 'reply:refused:4' });
    expect(outcomeOf({ code: 2002, msg: 'x', data: { ...reply('rejected', 15), one_key_error: 3 } }).text).toBe('reply:rejected:15:3');
  });

  it('shows stored outcomes in the caller language; rows written before the keys as stored', () => {
    expect(outcomeText('sent', 'en')).toBe('Sent');
    expect(outcomeText('sent', 'zh')).toBe('已下发');
    expect(outcomeText('missed', 'en')).toMatch(/^Missed/);
    expect(outcomeText('reply:offline:1', 'en')).toBe('The device is offline');
    expect(outcomeText('reply:offline:1', 'zh')).toBe('设备不在线');
    expect(outcomeText('reply:timeout:14', 'en')).toBe('The device did not answer in time');
    expect(outcomeText('reply:refused:4', 'zh')).toBe('飞机电量低于 50%，请充电后再起飞');
    expect(outcomeText('error:link down', 'en')).toBe('Send error: link down');
    expect(outcomeText('error:link down', 'zh')).toBe('下发出错: link down');
    // What a refusal names, kept in both languages, shown in the caller's; a cut-short name is left out.
    const named = `reply:refused:${Reason.ROUTE_ZONE}|${JSON.stringify({ zh: '禁飞区「学校」', en: 'No-fly zone "School"' })}`;
    expect(outcomeText(named, 'en')).toBe('The route enters a no-fly or restricted zone: No-fly zone "School"');
    expect(outcomeText(named, 'zh')).toMatch(/：禁飞区「学校」$/);
    expect(outcomeText(named.slice(0, -5), 'en')).toBe('The route enters a no-fly or restricted zone');
    // Legacy free text (the Chinese reply text) and anything unknown: as stored.
    expect(outcomeText('设备未在规定时间内响应', 'en')).toBe('设备未在规定时间内响应');
    expect(outcomeText('reply:bogus:1', 'en')).toBe('reply:bogus:1');
    expect(outcomeText('', 'en')).toBe('');
  });

  it('records refusals and thrown errors as send failures', async () => {
    const off = await addTask({ sn_id: 'OFF' });
    const slow = await addTask({ sn_id: 'SLOW' });
    const boom = await addTask({ sn_id: 'BOOM' });
    const flight = fakeFlight((sn) =>
      sn === 'OFF' ? fail('offline', 1, '设备不在线') : sn === 'SLOW' ? fail('timeout', 14, '设备未在规定时间内响应') : new Error('link down'),
    );
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => NOW });
    expect(await a.tick()).toBe(3);
    expect(await read(off.id)).toMatchObject({ task_state: 41, last_outcome: 'reply:offline:1', claimed_by: null });
    expect(await read(slow.id)).toMatchObject({ task_state: 40, last_outcome: 'reply:timeout:14' });
    expect(await read(boom.id)).toMatchObject({ task_state: 40, last_outcome: 'error:link down' });
  });

  it('keeps a zone refusal as a refusal when the English read of the checks fails, naming the zone in Chinese', async () => {
    const task = await addTask({ sn_id: 'ZONE' });
    const zoned: CommandAnswer = {
      code: 2002,
      msg: '航线进入禁飞区',
      data: { ...reply('refused', Reason.ROUTE_ZONE), checks: [{ item: 'zone', ok: false, reason: Reason.ROUTE_ZONE, value: '禁飞区「学校」' }] },
    };
    const flight = {
      ...fakeFlight(() => zoned),
      checks: async () => {
        throw new Error('database gone');
      },
    };
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => NOW });
    expect(await a.tick()).toBe(1);
    const row = await read(task.id);
    expect(row.task_state).toBe(40);
    expect(row.last_outcome).toBe(`reply:refused:${Reason.ROUTE_ZONE}|${JSON.stringify({ zh: '禁飞区「学校」', en: '禁飞区「学校」' })}`);
    expect(outcomeText(row.last_outcome, 'en')).toBe('The route enters a no-fly or restricted zone: 禁飞区「学校」');
  });
});

describe('fake clock: on time, once, across restarts', () => {
  it('fires exactly at its time, not a second before', async () => {
    const task = await addTask({ task_tms: NOW + 60 });
    const flight = fakeFlight();
    let now = NOW;
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => now });
    for (now = NOW; now < NOW + 60; now += 5) expect(await a.tick()).toBe(0);
    now = NOW + 59;
    expect(await a.tick()).toBe(0);
    expect(flight.launches).toHaveLength(0);
    expect((await read(task.id)).task_state).toBe(1);
    now = NOW + 60;
    expect(await a.tick()).toBe(1);
    expect(flight.launches).toHaveLength(1);
    const row = await read(task.id);
    expect(row).toMatchObject({ task_state: 10, last_outcome: 'sent' });
    expect(Number(row.last_run)).toBe(NOW + 60);
  });

  it('never fires twice with two instances polling one database on one clock, over a day of a repeating task', async () => {
    const task = await addTask({ task_tms: NOW + 10, interval_min: 30 });
    const flight = fakeFlight();
    let now = NOW;
    const a = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'A', now: () => now });
    const b = createScheduler({ db: dbB, flight, log: quiet, instanceId: 'B', now: () => now });
    // Both poll every 30 s of fake time, racing on each pass, for 24 hours (48 slots).
    let handled = 0;
    for (now = NOW; now < NOW + 24 * 3600; now += 30) handled += (await Promise.all([a.tick(), b.tick()])).reduce((x, y) => x + y, 0);
    expect(handled).toBe(48);
    expect(flight.launches).toHaveLength(48);
    const slots = flight.launches.map((l) => l.cmdId);
    expect(new Set(slots).size).toBe(48);
    expect(slots[0]).toBe(`task-${task.id}-${NOW + 10}`);
    expect(slots[47]).toBe(`task-${task.id}-${NOW + 10 + 47 * 1800}`);
    expect(Number((await read(task.id)).task_tms)).toBe(NOW + 10 + 48 * 1800);
  });

  it('after a restart: a run missed beyond the grace is marked missed (repeating: next slot), one within the grace fires', async () => {
    const flight = fakeFlight();
    let now = NOW;
    const before = createScheduler({ db: dbA, flight, log: quiet, instanceId: 'before', now: () => now });
    const once = await addTask({ sn_id: 'ONCE', task_tms: NOW + 100 });
    const every = await addTask({ sn_id: 'EVERY', task_tms: NOW + 200, interval_min: 60 });
    const late = await addTask({ sn_id: 'LATE', task_tms: NOW + 2000 });
    expect(await before.tick()).toBe(0);
    // The server is down from NOW + 1 until NOW + 2000 + MISSED_AFTER_S - 1; a new instance starts then.
    now = NOW + 2000 + MISSED_AFTER_S - 1;
    const after = createScheduler({ db: dbB, flight, log: quiet, instanceId: 'after', now: () => now });
    expect(await after.tick()).toBe(3);
    expect(flight.launches.map((l) => l.sn)).toEqual(['LATE']);
    expect(await read(once.id)).toMatchObject({ task_state: 40, last_outcome: 'missed', claimed_by: null });
    const e = await read(every.id);
    expect(e).toMatchObject({ task_state: 40, last_outcome: 'missed' });
    // NOW + 200 + k * 3600 > now: the first slot ahead is k = 1 (NOW + 3800 > NOW + 2599).
    expect(Number(e.task_tms)).toBe(NOW + 200 + 3600);
    expect(await read(late.id)).toMatchObject({ task_state: 10, last_outcome: 'sent' });
    // The repeating task flies its next slot on time, and its outcome replaces "missed".
    now = NOW + 3800;
    expect(await after.tick()).toBe(1);
    expect(await read(every.id)).toMatchObject({ task_state: 10, last_outcome: 'sent' });
    expect(flight.launches.map((l) => l.sn)).toEqual(['LATE', 'EVERY']);
  });

  it('after an instance died mid-run: the claim is taken over once stale, with the same command id', async () => {
    const task = await addTask({ task_tms: NOW });
    let now = NOW;
    // The dead instance claimed the run at NOW (its launch never recorded an outcome).
    await dbA.updateTable('timed_tasks').set({ claimed_by: 'dead', claimed_at: NOW }).where('id', '=', task.id).execute();
    const flight = fakeFlight();
    const next = createScheduler({ db: dbB, flight, log: quiet, instanceId: 'next', now: () => now });
    now = NOW + STALE_CLAIM_S;
    expect(await next.tick()).toBe(0);
    now = NOW + STALE_CLAIM_S + 1;
    expect(await next.tick()).toBe(1);
    expect(flight.launches.map((l) => l.cmdId)).toEqual([`task-${task.id}-${NOW}`]);
    expect(await read(task.id)).toMatchObject({ task_state: 10, claimed_by: null });
  });
});

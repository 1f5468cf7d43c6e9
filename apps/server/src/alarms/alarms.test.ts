import { randomUUID } from 'node:crypto';
import { DATA_CHANGED_PERIOD_MS, DEVICE_PUSH_FUNCTION, PushMsgId, ResultCode, alarmPush, callFunId, type Alarm } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, listen, registerDevice } from '../../test/live.js';

let server: TestServer;
let base: string;
let admin: TestClient;
let wk: TestClient;
let gz: TestClient;
let reader: TestClient;
let nobody: TestClient;
const sockets: PushSocket[] = [];
const ALL = ['/alarm/list', '/alarm/process', '/alarm/stats'].map(callFunId);
const T0 = Date.UTC(2026, 3, 1);

async function addAlarm(over: { sn: string; kind: string; level: number; company?: string; at: number; state?: number; cleared?: boolean }): Promise<string> {
  const id = randomUUID();
  await server.db
    .insertInto('alarms')
    .values({
      id,
      sn_id: over.sn,
      company_id: over.company ?? 'wk',
      kind: over.kind,
      level: over.level,
      state: over.state ?? 10,
      value: over.kind === 'high_wind' ? 14.5 : null,
      detail: over.kind === 'nest_part_fault' ? 'hatch' : '',
      flight_id: null,
      lat: 22.5,
      lng: 114.1,
      raised_at: over.at,
      cleared_at: over.cleared ? over.at + 60_000 : null,
    })
    .execute();
  return id;
}

let ids: Record<'wind' | 'hatch' | 'battery' | 'rain' | 'other', string> = { wind: '', hatch: '', battery: '', rain: '', other: '' };
beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: 'AL-A', airport_name: 'Hill nest' });
  await registerDevice(server, { sn_id: 'AL-B', airport_name: '', uav_name: 'Lone drone', type: 'alone' });
  await registerDevice(server, { sn_id: 'AL-G', airport_name: 'Other nest', company_id: 'gzGh' });
  ids = {
    wind: await addAlarm({ sn: 'AL-A', kind: 'high_wind', level: 20, at: T0, cleared: true }),
    hatch: await addAlarm({ sn: 'AL-A', kind: 'nest_part_fault', level: 30, at: T0 + 3600_000 }),
    battery: await addAlarm({ sn: 'AL-B', kind: 'battery_low', level: 20, at: T0 + 7200_000, state: 20 }),
    rain: await addAlarm({ sn: 'AL-B', kind: 'rain', level: 10, at: T0 + 86_400_000 }),
    other: await addAlarm({ sn: 'AL-G', kind: 'rtk_loss', level: 20, company: 'gzGh', at: T0 + 10_000 }),
  };
  admin = await adminClient(server);
  wk = await userClient(server, { nick: 'Duty officer', funList: [...ALL, DEVICE_PUSH_FUNCTION] });
  gz = await userClient(server, { nick: 'GZ officer', funList: [...ALL, DEVICE_PUSH_FUNCTION], companyId: 'gzGh' });
  reader = await userClient(server, { funList: [callFunId('/alarm/list'), DEVICE_PUSH_FUNCTION] });
  nobody = await userClient(server, { funList: [DEVICE_PUSH_FUNCTION] });
  base = await listen(server);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.close();
});

async function socket(c: TestClient): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  expect((await s.verifyUser(c)).code).toBe(ResultCode.OK);
  return s;
}

type ListData = { list: Alarm[]; total: number; pending: number };
const list = async (c: TestClient, fields: Record<string, string | number> = {}) => {
  const res = await c.call<ListData>('alarmList', fields);
  expect(res.body.code).toBe(ResultCode.OK);
  return res.body.data;
};
const names = (d: ListData) => d.list.map((a) => Object.entries(ids).find(([, id]) => id === a.id)?.[0]);

describe('/alarm/list', () => {
  it('lists the company alarms newest first with device names, total and pending', async () => {
    const d = await list(wk);
    expect(names(d)).toEqual(['rain', 'battery', 'hatch', 'wind']);
    expect(d.total).toBe(4);
    expect(d.pending).toBe(3);
    const wind = d.list.find((a) => a.id === ids.wind)!;
    expect(wind).toMatchObject({ sn_id: 'AL-A', device_name: 'Hill nest', kind: 'high_wind', level: 20, state: 10, value: 14.5, raised_at: T0, cleared_at: T0 + 60_000, processed_at: null, processed_by: '', note: '' });
    expect(d.list.find((a) => a.id === ids.rain)!.device_name).toBe('Lone drone');
  });

  it('filters by level, state, kind, device and time, and pages', async () => {
    expect(names(await list(wk, { level: 20 }))).toEqual(['battery', 'wind']);
    expect(names(await list(wk, { state: 20 }))).toEqual(['battery']);
    expect(names(await list(wk, { kind: 'nest_part_fault' }))).toEqual(['hatch']);
    expect(names(await list(wk, { sn_id: 'AL-B' }))).toEqual(['rain', 'battery']);
    expect(names(await list(wk, { start_time: T0 / 1000 + 3600, end_time: T0 / 1000 + 7200 }))).toEqual(['battery', 'hatch']);
    const page = await list(wk, { page: 1, size: 3 });
    expect(names(page)).toEqual(['wind']);
    expect(page.total).toBe(4);
  });

  it('refuses bad input', async () => {
    const bad: Record<string, string | number>[] = [{ level: 40 }, { state: 5 }, { kind: 'meteor' }, { size: 0 }, { start_time: 100, end_time: 50 }];
    for (const fields of bad) {
      expect((await wk.call('alarmList', fields)).body.code).toBe(ResultCode.BAD_REQUEST);
    }
  });

  it('keeps to the company; the super administrator sees every company', async () => {
    expect(names(await list(gz))).toEqual(['other']);
    expect((await list(gz)).pending).toBe(1);
    expect((await list(admin)).total).toBe(5);
  });

  it('needs the function', async () => {
    expect((await nobody.call('alarmList', {})).body.code).toBe(ResultCode.NO_PERMISSION);
  });
});

describe('/alarm/stats', () => {
  it('counts by level and kind, within the filters and the company', async () => {
    type Stats = { total: number; pending: number; by_level: { level: number; total: number; pending: number }[]; by_kind: { kind: string; total: number; pending: number }[] };
    const s = (await wk.call<Stats>('alarmStats', {})).body;
    expect(s.code).toBe(ResultCode.OK);
    expect(s.data.total).toBe(4);
    expect(s.data.pending).toBe(3);
    expect(s.data.by_level).toEqual([
      { level: 30, total: 1, pending: 1 },
      { level: 20, total: 2, pending: 1 },
      { level: 10, total: 1, pending: 1 },
    ]);
    expect(s.data.by_kind.find((k) => k.kind === 'high_wind')).toEqual({ kind: 'high_wind', total: 1, pending: 1 });
    expect(s.data.by_kind.find((k) => k.kind === 'flow_failed')).toEqual({ kind: 'flow_failed', total: 0, pending: 0 });
    expect((await wk.call<Stats>('alarmStats', { sn_id: 'AL-B' })).body.data.total).toBe(2);
    expect((await wk.call<Stats>('alarmStats', { start_time: T0 / 1000 + 86_400 })).body.data.total).toBe(1);
    expect((await gz.call<Stats>('alarmStats', {})).body.data).toMatchObject({ total: 1, pending: 1 });
    expect((await admin.call<Stats>('alarmStats', {})).body.data.total).toBe(5);
    expect((await wk.call('alarmStats', { start_time: 10, end_time: 5 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await reader.call('alarmStats', {})).body.code).toBe(ResultCode.NO_PERMISSION);
  });
});

describe('/alarm/process', () => {
  it('refuses ids of another company or unknown ones, and changes nothing', async () => {
    for (const idsField of [`${ids.hatch},${ids.other}`, `${ids.hatch},${randomUUID()}`]) {
      const res = await wk.call('alarmProcess', { ids: idsField, note: 'x' });
      expect(res.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    }
    expect((await gz.call('alarmProcess', { ids: ids.hatch })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const hatch = (await list(wk)).list.find((a) => a.id === ids.hatch)!;
    expect(hatch.state).toBe(10);
    expect((await wk.call('alarmProcess', { ids: '' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('alarmProcess', { ids: ids.hatch, note: 'x'.repeat(501) })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await reader.call('alarmProcess', { ids: ids.hatch })).body.code).toBe(ResultCode.NO_PERMISSION);
  });

  it('marks alarms processed with the note and nick, keeps a first note, and pushes 370 to the company', async () => {
    const mine = await socket(wk);
    const readerSocket = await socket(reader);
    const other = await socket(gz);
    const blind = await socket(nobody);
    const res = await wk.call<{ list: Alarm[]; pending: number }>('alarmProcess', { ids: `${ids.hatch},${ids.battery}`, note: 'Hatch motor replaced' });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.pending).toBe(2);
    const hatch = res.body.data.list.find((a) => a.id === ids.hatch)!;
    expect(hatch).toMatchObject({ state: 20, processed_by: 'Duty officer', note: 'Hatch motor replaced' });
    expect(hatch.processed_at).toBeGreaterThan(Date.now() - 60_000);
    // Processed before: its state and (empty) note stay.
    expect(res.body.data.list.find((a) => a.id === ids.battery)).toMatchObject({ state: 20, note: '', processed_by: '' });

    const frame = await mine.wait((f) => f.msg_id === PushMsgId.ALARM, WAIT_LIMIT_MS);
    const data = alarmPush.parse(frame.data);
    expect(data).toMatchObject({ event: 'processed', pending: 2, alarm: { id: ids.hatch, state: 20 } });
    await readerSocket.wait((f) => f.msg_id === PushMsgId.ALARM, WAIT_LIMIT_MS);
    // The 370s went out before the call answered: a heartbeat round trip on each socket brings any of them.
    for (const s of [mine, other, blind]) await s.roundTrip();
    // Exactly one 370 (the battery one was already processed); none for another company or without alarm_list.
    expect(mine.of(PushMsgId.ALARM)).toHaveLength(1);
    expect(other.of(PushMsgId.ALARM)).toHaveLength(0);
    expect(blind.of(PushMsgId.ALARM)).toHaveLength(0);

    // Processing again keeps the first note.
    const again = await wk.call<{ list: Alarm[] }>('alarmProcess', { ids: ids.hatch, note: 'second' });
    expect(again.body.data.list[0]).toMatchObject({ note: 'Hatch motor replaced' });
  });
});

describe('380 DATA_CHANGED', () => {
  it('throttles per company to one message per period, naming every topic since the last one', async () => {
    const s = await socket(wk);
    const other = await socket(gz);
    const changes = server.app.nest.deps.changes;
    const dataChanged = (from: number) => s.frames.slice(from).filter((f) => f.msg_id === PushMsgId.DATA_CHANGED);
    const topicsOf = (f: { data: unknown }) => (f.data as { topics: string[] }).topics;
    // Earlier tests' changes may still be held back by the period: the first message naming this change
    // carries them too. From it on, the period starts afresh.
    let from = s.frames.length;
    changes.changed('wk', 'results');
    const first = await s.wait((f) => f.msg_id === PushMsgId.DATA_CHANGED && topicsOf(f).includes('results'), WAIT_LIMIT_MS, from);
    from = s.frames.indexOf(first) + 1;
    // Within the period: held back, then one message naming each topic once.
    changes.changed('wk', 'sorties');
    changes.changed('wk', 'results');
    changes.changed('wk', 'alarms');
    const second = await s.wait((f) => f.msg_id === PushMsgId.DATA_CHANGED, WAIT_LIMIT_MS, from);
    expect(second.data).toEqual({ topics: ['alarms', 'results', 'sorties'] });
    // A period after the first (sent at once, it would come within milliseconds; half the period is left for
    // a busy machine's delivery and timer delays).
    expect(second.at - first.at).toBeGreaterThan(DATA_CHANGED_PERIOD_MS / 2);
    // Nothing more in between: the next change comes alone, a period after the second.
    changes.changed('wk', 'tasks');
    const third = await s.wait((f) => f.msg_id === PushMsgId.DATA_CHANGED && f.at > second.at, WAIT_LIMIT_MS, from);
    expect(third.data).toEqual({ topics: ['tasks'] });
    expect(dataChanged(from)).toEqual([second, third]);
    // Another company's socket: a heartbeat round trip brings anything sent to it.
    await other.roundTrip();
    expect(other.of(PushMsgId.DATA_CHANGED)).toHaveLength(0);
  });
});

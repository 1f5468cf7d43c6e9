import {
  DEVICE_PUSH_FUNCTION,
  HEALTH_EVENT,
  PushMsgId,
  ResultCode,
  STATIC_RESOURCES,
  STATIC_TOKEN_HEADER,
  alarmPush,
  alarmText,
  callFunId,
  realtimeMessageSchema,
  type Alarm,
  type AlarmPush,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, RawDevice, envelope, listen, live, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { fillHealthText, healthCatalogue, healthText, unknownHealthText } from './health.js';

describe('health texts', () => {
  it('reads the zh and en texts of the HMS catalogue', () => {
    const c = healthCatalogue();
    expect(c.size).toBeGreaterThan(2400);
    expect(c.get('dock_tip_0x160900BF')).toEqual({ zh: '风速过大（≥9 m/s），无法执行飞行任务', en: 'Wind speed too high (≥9 m/s). Unable to perform task' });
    for (const entry of c.values()) expect(Object.keys(entry).every((l) => l === 'zh' || l === 'en')).toBe(true);
  });

  it('fills the placeholders as DJI documents them', () => {
    const t = '%alarmid|%component_index|%index|%battery_index|%dock_cover_index|%charging_rod_index';
    expect(fillHealthText(t, { alarm_id: 0x1a2b, component_index: 0, sensor_index: 1 }, 'en')).toBe('1a2b|1|2|right|right|back');
    expect(fillHealthText(t, { alarm_id: 255, component_index: 2, sensor_index: 0 }, 'zh')).toBe('ff|3|1|左|左|前');
    expect(fillHealthText('%charging_rod_index', { sensor_index: 3 }, 'zh')).toBe('右');
    // Out of range or missing: left as written.
    expect(fillHealthText('%battery_index %index', { sensor_index: 2 }, 'en')).toBe('%battery_index 3');
    expect(fillHealthText('%index %alarmid', undefined, 'en')).toBe('%index %alarmid');
  });

  it('names the code, the module and the key of a key the catalogue does not have', () => {
    const h = { key: 'dock_tip_0x1FFFFFF0', module: 1, level: 1, in_the_sky: false };
    expect(healthText('0x1FFFFFF0', h)).toEqual({
      zh: '未知健康消息 0x1FFFFFF0（设备模块，dock_tip_0x1FFFFFF0）',
      en: 'Unknown health message 0x1FFFFFF0 (device module, dock_tip_0x1FFFFFF0)',
    });
    expect(unknownHealthText('0x1', 9, 'k', 'en')).toBe('Unknown health message 0x1 (9 module, k)');
  });

  it('finds a key whose code is spelled in lower case', () => {
    expect(healthText('0x160900BF', { key: 'dock_tip_0x160900bf', module: 3, level: 2, in_the_sky: false }).en).toBe('Wind speed too high (≥9 m/s). Unable to perform task');
  });
});

const SN = 'HA-D';
let server: TestServer;
let wk: TestClient;
let ws: PushSocket;
let dev: RawDevice;

beforeAll(async () => {
  server = await startTestServer();
  await live(server).link.ready();
  await registerDevice(server, { sn_id: SN, type: 'stable_mini', airport_name: 'Dock one' });
  wk = await userClient(server, { funList: [...['/alarm/list', '/alarm/stats'].map(callFunId), DEVICE_PUSH_FUNCTION, 'menu_home'] });
  ws = await PushSocket.open(await listen(server));
  expect((await ws.verifyUser(wk)).code).toBe(ResultCode.OK);
  dev = await RawDevice.connect(server, SN);
  await dev.subscribe(`nest/v1/${SN}/events_reply`);
  await dev.publish('presence', envelope('presence', { online: true, rate_hz: 1 }), { qos: 1, retain: true });
  await dev.publish('telemetry', envelope('telemetry', nestTelemetry(22.61, 114.21)));
  await until(() => live(server).link.device(SN)?.telemetry?.nest?.lat === 22.61, 'the nest telemetry');
});
afterAll(async () => {
  ws?.close();
  await dev?.end();
  await server?.close();
});

/**
 * Sends a health event and resolves once the server acknowledged it: the link replies after the alarm
 * monitor stored what the event changed.
 */
async function report(items: unknown[] | unknown): Promise<void> {
  const m = envelope(HEALTH_EVENT, Array.isArray(items) ? { items } : items);
  await dev.publish('events', m, { qos: 1 });
  await until(
    () => dev.received.some((r) => r.topic.endsWith('/events_reply') && (JSON.parse(r.payload.toString()) as { tid: string }).tid === m.tid),
    'the health event acknowledged',
  );
}

/** Resolves once the socket got every frame sent to it so far (the heartbeat's reply comes after them). */
async function drained(s: PushSocket): Promise<void> {
  expect((await s.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
}

const rows = () => server.db.selectFrom('alarms').selectAll().where('sn_id', '=', SN).where('kind', '=', 'device_health').orderBy('raised_at').orderBy('detail').execute();
const open = async () => (await rows()).filter((r) => r.cleared_at === null).map((r) => r.detail).sort();
const frames = (): AlarmPush[] => ws.of(PushMsgId.ALARM).map((f) => alarmPush.parse(f.data)).filter((d) => d.alarm.kind === 'device_health');

/** A drone ESC message (two placeholders) as an alarm, and a dock code the catalogue does not have as a notice. */
const ESC = { level: 2, module: 3, code: '0x16080077', key: 'fpv_tip_0x16080077', in_the_sky: false, device_type: '0-91-0', args: { component_index: 0, sensor_index: 2, alarm_id: 0x1a2b } };
const UNKNOWN = { level: 1, module: 1, code: '0x1FFFFFF0', key: 'dock_tip_0x1FFFFFF0', in_the_sky: false, device_type: '3-2-0', args: { component_index: 0, sensor_index: 0 } };

describe('health alarms from health events', () => {
  it('raises one alarm per item with its level and text in both languages, ignoring a bad item', async () => {
    await report([ESC, { ...UNKNOWN, level: 7 }, { code: 5 }, UNKNOWN]);
    const stored = await rows();
    expect(stored.map((r) => [r.detail, Number(r.level), r.company_id, r.cleared_at, Number(r.lat), Number(r.lng)])).toEqual([
      ['0x16080077', 30, 'wk', null, 22.61, 114.21],
      ['0x1FFFFFF0', 20, 'wk', null, 22.61, 114.21],
    ]);

    for (const lang of ['zh', 'en'] as const) {
      const list = (await wk.call<{ list: Alarm[] }>('alarmList', { sn_id: SN, kind: 'device_health' }, { lang })).body.data.list;
      const byCode = new Map(list.map((a) => [a.detail, a]));
      expect(byCode.get('0x16080077')).toMatchObject({ level: 30, device_name: 'Dock one', text: { zh: '3号电调严重超温(1a2b)', en: '3 ESC overheated (1a2b)' } });
      expect(byCode.get('0x1FFFFFF0')!.text).toEqual({
        zh: '未知健康消息 0x1FFFFFF0（设备模块，dock_tip_0x1FFFFFF0）',
        en: 'Unknown health message 0x1FFFFFF0 (device module, dock_tip_0x1FFFFFF0)',
      });
      expect(alarmText(byCode.get('0x16080077')!, lang)).toBe(lang === 'zh' ? '设备健康告警：3号电调严重超温(1a2b)' : 'Device health message: 3 ESC overheated (1a2b)');
    }

    await until(() => frames().length >= 2, 'two 370');
    expect(frames().map((f) => [f.event, f.alarm.detail, f.alarm.text?.en]).sort()).toEqual([
      ['raised', '0x16080077', '3 ESC overheated (1a2b)'],
      ['raised', '0x1FFFFFF0', 'Unknown health message 0x1FFFFFF0 (device module, dock_tip_0x1FFFFFF0)'],
    ]);
    // The data screen's real-time messages show the same text.
    const screen = await server.app.inject({ method: 'GET', url: STATIC_RESOURCES.realtimeMessage, headers: { [STATIC_TOKEN_HEADER]: wk.token } });
    const messages = realtimeMessageSchema.array().parse(screen.json()).filter((m) => m.sn_id === SN);
    expect(messages.map((m) => m.text.en).sort()).toEqual([
      'Device health message: 3 ESC overheated (1a2b)',
      'Device health message: Unknown health message 0x1FFFFFF0 (device module, dock_tip_0x1FFFFFF0)',
    ]);
    expect(messages.map((m) => m.text.zh)).toContain('设备健康告警：3号电调严重超温(1a2b)');
    const stats = (await wk.call<{ by_kind: { kind: string; total: number; pending: number }[] }>('alarmStats', {})).body.data;
    expect(stats.by_kind.find((k) => k.kind === 'device_health')).toEqual({ kind: 'device_health', total: 2, pending: 2 });
  });

  it('does not duplicate a repeated report, and clears a code missing from a later one', async () => {
    const before = frames().length;
    // The device repeats its list (the in-the-sky variant of a code is the same episode).
    await report([UNKNOWN, ESC]);
    await report([{ ...ESC, in_the_sky: true, key: 'fpv_tip_0x16080077_in_the_sky' }, UNKNOWN]);
    expect(await rows()).toHaveLength(2);
    await drained(ws);
    expect(frames()).toHaveLength(before);

    await report([ESC]);
    expect(await open()).toEqual(['0x16080077']);
    const cleared = (await rows()).find((r) => r.detail === '0x1FFFFFF0')!;
    expect(cleared.cleared_at).not.toBeNull();
    expect(Number(cleared.state)).toBe(10);
    await until(() => frames().length > before, 'the clear pushed');
    await drained(ws);
    expect(frames().slice(before).map((f) => [f.event, f.alarm.detail])).toEqual([['cleared', '0x1FFFFFF0']]);
  });

  it('keeps a code open while its item is unreadable, ignores a report without a list, and clears all on an empty list', async () => {
    await report([{ ...ESC, level: 'high' }]);
    expect(await open()).toEqual(['0x16080077']);
    await report({ list: [] });
    await report({ items: 'none' });
    expect(await open()).toEqual(['0x16080077']);
    await report([]);
    expect(await open()).toEqual([]);
  });

  it('opens a new episode when a cleared code is reported again', async () => {
    await report([{ ...UNKNOWN, code: '0x1fffffF0' }]);
    expect(await open()).toEqual(['0x1FFFFFF0']);
    const episodes = (await rows()).filter((r) => r.detail === '0x1FFFFFF0');
    expect(episodes.map((r) => r.cleared_at === null)).toEqual([false, true]);
  });
});

import {
  APP_CODE,
  APP_IDS,
  EQUIPMENT_VERIFY_SOR,
  EQUIPMENT_VERIFY_VST,
  PUSH_MAX_FRAME_BYTES,
  PUSH_VERIFY_LIMIT_MS,
  PushMsgId,
  ResultCode,
  codeText,
  signPmd,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, clockPast, listen, registerDevice } from '../../test/live.js';
import { PUSH_FLOOD_FRAMES_PER_SECOND } from './hub.js';

let server: TestServer;
let admin: TestClient;
let base: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
  base = await listen(server);
});
afterAll(async () => server?.close());

const open = (): Promise<PushSocket> => PushSocket.open(base);

async function verifyData(c: TestClient, lang = 'en') {
  return { token: c.token, app_ids: APP_IDS, app_code: APP_CODE, licence: await c.licence(), os_language: lang };
}

async function verified(c: TestClient, lang = 'en'): Promise<PushSocket> {
  const s = await open();
  const reply = await s.request(PushMsgId.USER_VERIFY, await verifyData(c, lang));
  expect(reply.code).toBe(ResultCode.OK);
  return s;
}

const equipment = (c: TestClient, snId: string) => ({
  token: c.token,
  sn_id: snId,
  pmd: signPmd({ token: c.token, pmdValue: snId }),
  vst: EQUIPMENT_VERIFY_VST,
  sor: EQUIPMENT_VERIFY_SOR,
  os_language: 'en',
});

describe('100 user verification', () => {
  it('verifies a super administrator', async () => {
    const s = await open();
    const reply = await s.request(PushMsgId.USER_VERIFY, await verifyData(admin));
    expect(reply).toEqual({ code: ResultCode.OK, msg: codeText(ResultCode.OK, 'en'), msg_id: 100, data: { u_id: admin.user!.u_id } });
    s.close();
  });

  it('verifies a user holding device_10, and refuses one without it', async () => {
    const pushUser = await userClient(server, { funList: ['device_10'] });
    const s = await verified(pushUser);
    s.close();
    const plain = await userClient(server, { funList: ['menu_home'] });
    const t = await open();
    const reply = await t.request(PushMsgId.USER_VERIFY, await verifyData(plain, 'zh'));
    expect(reply).toEqual({ code: ResultCode.NO_PERMISSION, msg: codeText(ResultCode.NO_PERMISSION, 'zh'), msg_id: 100, data: null });
    // Still unverified.
    expect((await t.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.LOGIN_EXPIRED);
    t.close();
  });

  it('refuses a bad licence, a dead token and malformed data', async () => {
    const s = await open();
    const otherLicence = await admin.licence('another-token');
    const bad = await s.request(PushMsgId.USER_VERIFY, { ...(await verifyData(admin)), licence: otherLicence });
    expect(bad).toMatchObject({ code: ResultCode.BAD_SIGNATURE, msg: 'The licence is invalid', msg_id: 100 });
    const garbage = await s.request(PushMsgId.USER_VERIFY, { ...(await verifyData(admin)), licence: 'bm9wZQ==' });
    expect(garbage.code).toBe(ResultCode.BAD_SIGNATURE);
    const dead = await s.request(PushMsgId.USER_VERIFY, { ...(await verifyData(admin)), token: 'no-such-token' });
    expect(dead).toMatchObject({ code: ResultCode.LOGIN_EXPIRED, msg_id: 100 });
    const { licence: _l, ...noLicence } = await verifyData(admin);
    expect(await s.request(PushMsgId.USER_VERIFY, noLicence)).toMatchObject({ code: ResultCode.BAD_REQUEST, msg_id: 100 });
    s.close();
  });

  it('answers LOGIN_EXPIRED to every other message until verified', async () => {
    const s = await open();
    for (const id of [PushMsgId.HEARTBEAT, PushMsgId.EQUIPMENT_VERIFY, PushMsgId.CONTROL, 999]) {
      expect(await s.request(id, equipment(admin, 'SN1'))).toMatchObject({ code: ResultCode.LOGIN_EXPIRED, msg_id: id });
    }
    s.close();
  });
});

describe('101 heartbeat', () => {
  it('answers 2000 while the session lives; sign-out ends the socket at once: 46010, then closed', async () => {
    const c = await userClient(server, { funList: ['device_10'] });
    const s = await verified(c);
    expect(await s.request(PushMsgId.HEARTBEAT)).toEqual({ code: ResultCode.OK, msg: codeText(ResultCode.OK, 'en'), msg_id: 101, data: null });
    expect((await c.call('logout')).body.code).toBe(ResultCode.OK);
    // No heartbeat needed: the sign-out itself ends the socket.
    expect(await s.next()).toMatchObject({ code: ResultCode.PUSH_NOT_ALIVE, msg_id: 101, data: null });
    expect(await s.closed).toBe(1000);
  });

  it('answers 46010 once the user lost device_10', async () => {
    const c = await userClient(server, { funList: ['device_10'] });
    const s = await verified(c);
    expect((await s.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    await server.db.updateTable('users').set({ fun_list: '[]' }).where('u_id', '=', c.account.u_id).execute();
    expect(await s.request(PushMsgId.HEARTBEAT)).toMatchObject({ code: ResultCode.PUSH_NOT_ALIVE, msg_id: 101 });
    expect(await s.closed).toBe(1000);
  });

  it('answers 46010 once the session expired', async () => {
    const c = await userClient(server, { funList: ['device_10'] });
    const s = await verified(c);
    await server.db.updateTable('sessions').set({ expires_at: 0 }).where('user_id', '=', c.account.u_id).execute();
    expect(await s.request(PushMsgId.HEARTBEAT)).toMatchObject({ code: ResultCode.PUSH_NOT_ALIVE, msg_id: 101 });
    await s.closed;
  });
});

describe('sessions bound to sockets', () => {
  it(`closes a socket that has not verified within ${PUSH_VERIFY_LIMIT_MS / 1000} s; a verified one stays`, async () => {
    const idle = await open();
    const failed = await open();
    expect((await failed.request(PushMsgId.USER_VERIFY, { ...(await verifyData(admin)), token: 'not-a-token' })).code).toBe(ResultCode.LOGIN_EXPIRED);
    const ok = await verified(admin);
    const hub = server.app.nest.hub;
    // The sweep's clock is injected: just short of the limit nothing happens, at it both unverified ones go.
    hub.sweep(Date.now() + PUSH_VERIFY_LIMIT_MS - 2000);
    expect((await ok.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    expect(idle.ws.readyState).toBe(WebSocket.OPEN);
    hub.sweep(Date.now() + PUSH_VERIFY_LIMIT_MS);
    for (const s of [idle, failed]) {
      expect(await s.closed).toBe(1008);
    }
    // A socket that never said its language is told in Chinese, the console's default.
    expect(await idle.next()).toMatchObject({ code: ResultCode.LOGIN_EXPIRED, msg_id: PushMsgId.USER_VERIFY, msg: '连接未在规定时间内完成用户校验，已断开' });
    expect((await ok.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    ok.close();
  });

  it('ends a socket whose user reaches the end of their validity, without a heartbeat or a call', async () => {
    const end = Math.floor(Date.now() / 1000) + 1;
    const c = await userClient(server, { funList: ['device_10'], startTime: end - 3600, endTime: end });
    const s = await verified(c);
    // The validity ends at a wall-clock second nobody announces: the sweep notices it.
    await clockPast((end + 1) * 1000, 0);
    server.app.nest.hub.sweep();
    expect(await s.next()).toMatchObject({ code: ResultCode.PUSH_NOT_ALIVE, msg_id: PushMsgId.HEARTBEAT });
    expect(await s.closed).toBe(1000);
  });

  it('answers in the language of 100 when a session ends', async () => {
    const c = await userClient(server, { funList: ['device_10'] });
    const s = await verified(c, 'zh');
    expect((await c.call('logout')).body.code).toBe(ResultCode.OK);
    expect(await s.next()).toMatchObject({ code: ResultCode.PUSH_NOT_ALIVE, msg: '登录已失效（已退出、账号或权限已变更），请重新登录' });
  });
});

describe('200 equipment verification', () => {
  it('records the device and delivers what is published for it', async () => {
    await registerDevice(server, { sn_id: 'SN-42' });
    const s = await verified(admin);
    expect(await s.request(PushMsgId.EQUIPMENT_VERIFY, equipment(admin, 'SN-42'))).toEqual({
      code: ResultCode.OK,
      msg: codeText(ResultCode.OK, 'en'),
      msg_id: 200,
      data: { sn_id: 'SN-42' },
    });
    // The status snapshot follows the verification.
    expect(await s.next()).toMatchObject({ code: ResultCode.OK, msg_id: 301, data: { sn_id: 'SN-42', state: 2, connected_by: null } });
    // Then the current flow (320) and mission (330) from the retained state: none yet.
    expect(await s.next()).toMatchObject({ code: ResultCode.OK, msg_id: 320, data: { sn_id: 'SN-42', flow: null } });
    expect(await s.next()).toMatchObject({ code: ResultCode.OK, msg_id: 330, data: { sn_id: 'SN-42', mission: null } });
    expect(server.app.nest.hub.publish('SN-42', 300, { battery: 88 })).toBe(1);
    expect(await s.next()).toEqual({ code: ResultCode.OK, msg: codeText(ResultCode.OK, 'en'), msg_id: 300, data: { battery: 88 } });
    expect(server.app.nest.hub.publish('SN-other', 300, {})).toBe(0);
    expect(server.app.nest.hub.broadcastToUser(admin.user!.u_id, 301, { hello: 1 })).toBeGreaterThanOrEqual(1);
    expect(await s.next()).toMatchObject({ msg_id: 301, data: { hello: 1 } });
    s.close();
  });

  it('validates the data, the pmd and the token', async () => {
    const s = await verified(admin);
    expect(await s.request(PushMsgId.EQUIPMENT_VERIFY, { ...equipment(admin, 'SN1'), vst: 41 })).toMatchObject({
      code: ResultCode.BAD_REQUEST,
      msg_id: 200,
    });
    expect(await s.request(PushMsgId.EQUIPMENT_VERIFY, { ...equipment(admin, 'SN1'), sor: '101' })).toMatchObject({ code: ResultCode.BAD_REQUEST });
    const { sn_id: _sn, ...noSn } = equipment(admin, 'SN1');
    expect(await s.request(PushMsgId.EQUIPMENT_VERIFY, noSn)).toMatchObject({ code: ResultCode.BAD_REQUEST });
    expect(await s.request(PushMsgId.EQUIPMENT_VERIFY, { ...equipment(admin, 'SN1'), pmd: signPmd({ token: admin.token, pmdValue: 'SN2' }) })).toMatchObject({
      code: ResultCode.BAD_SIGNATURE,
      msg_id: 200,
    });
    const other = await userClient(server, { funList: ['device_10'] });
    expect(await s.request(PushMsgId.EQUIPMENT_VERIFY, equipment(other, 'SN1'))).toMatchObject({ code: ResultCode.LOGIN_EXPIRED, msg_id: 200 });
    expect(server.app.nest.hub.publish('SN1', 300, {})).toBe(0);
    s.close();
  });
});

describe('other messages and malformed frames', () => {
  it('answers BAD_REQUEST to malformed 401 / 473 and unknown ids, NOT_FOUND_OBJECT to unknown devices, in the language of 100', async () => {
    const s = await verified(admin, 'zh');
    expect(await s.request(PushMsgId.CONTROL, { cmd_type: 1 })).toEqual({
      code: ResultCode.BAD_REQUEST,
      msg: '推送消息格式不正确',
      msg_id: 401,
      data: null,
    });
    expect((await s.request(PushMsgId.PROCESS_CONTROL)).code).toBe(ResultCode.BAD_REQUEST);
    expect((await s.request(PushMsgId.CONTROL, { sn_id: 'NO-SUCH-SN', cmd_type: 2 })).code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await s.request(PushMsgId.PROCESS_CONTROL, { sn_id: 'NO-SUCH-SN', control_cmd: 1 })).code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect(await s.request(999)).toEqual({ code: ResultCode.BAD_REQUEST, msg: '未知的消息类型 999', msg_id: 999, data: null });
    s.close();
  });

  it('answers BAD_REQUEST to malformed or oversized frames and keeps the socket', async () => {
    const s = await verified(admin);
    s.raw('not json');
    expect(await s.next()).toMatchObject({ code: ResultCode.BAD_REQUEST, msg_id: 0, msg: 'The push message is malformed' });
    s.raw(JSON.stringify({ msg_id: 101, tms: 1 }));
    expect(await s.next()).toMatchObject({ code: ResultCode.BAD_REQUEST, msg_id: 101 });
    s.raw(JSON.stringify({ msg_id: 'x', tms: 1, version: 0 }));
    expect(await s.next()).toMatchObject({ code: ResultCode.BAD_REQUEST, msg_id: 0 });
    s.raw(JSON.stringify([1, 2]));
    expect(await s.next()).toMatchObject({ code: ResultCode.BAD_REQUEST, msg_id: 0 });
    s.raw(Buffer.from([1, 2, 3]), true);
    expect(await s.next()).toMatchObject({ code: ResultCode.BAD_REQUEST, msg_id: 0 });
    s.raw(JSON.stringify({ msg_id: 101, tms: 1, version: 0, data: { pad: 'x'.repeat(PUSH_MAX_FRAME_BYTES) } }));
    expect(await s.next()).toMatchObject({ code: ResultCode.BAD_REQUEST, msg_id: 101, msg: 'The push message is too large' });
    s.raw(JSON.stringify({ msg_id: 101, tms: 1, version: 0, data: { __proto__: { polluted: 1 } } }));
    expect((await s.next()).code).toBe(ResultCode.OK);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await s.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    s.close();
  });

  it(`closes a socket that sends more than ${PUSH_FLOOD_FRAMES_PER_SECOND} frames a second (1008)`, async () => {
    const s = await verified(admin);
    for (let i = 0; i < PUSH_FLOOD_FRAMES_PER_SECOND + 10; i++) s.send(PushMsgId.HEARTBEAT);
    expect(await s.closed).toBe(1008);
  });

  it('a normal pace is fine', async () => {
    const s = await verified(admin);
    for (let i = 0; i < 10; i++) expect((await s.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    s.close();
  });
});

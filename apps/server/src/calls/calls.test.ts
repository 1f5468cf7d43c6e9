import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { CALL_LIST, MEDIA_UPLOAD_PATH, ResultCode, callUrl, calls, codeText, type CallName } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoutes } from './routes.js';
import { CallError } from './errors.js';
import { RawJson } from './raw-json.js';
import { FORM_BODY_LIMIT, MULTIPART_FIELD_LIMIT } from './body.js';
import { INGEST_PATH } from '../storage/ingest/mount.js';
import type { TestClient} from '../../test/helpers.js';
import { adminClient, browserPayload, startTestServer, userClient, type TestServer } from '../../test/helpers.js';

let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer({
    handlers: {
      // Test doubles on registry calls that have no handler yet: one throws half-way through a
      // transaction, one answers a failure of its own choosing.
      missionType: async () => {
        await server.app.nest.deps.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key: 'half-applied', value: 'x' }).execute();
          throw new Error('boom');
        });
        return { data: [] };
      },
      userGetDeviceType: async () => {
        throw new CallError(ResultCode.NOT_FOUND_OBJECT);
      },
      // Answers what /alarm/stats never answers (a count as text, lists missing): the handler type refuses it
      // at compile time, and the server's answer check at run time (below).
      // @ts-expect-error -- a deliberately wrong answer
      alarmStats: async () => ({ data: { total: '3', pending: 0 } }),
      // Answers given as JSON text (RawJson): one the schema accepts, one it refuses (a kind as text, fields missing).
      deviceTypeList: async () => ({ data: new RawJson('[]'), shown: true }),
      videoDeviceTypeList: async () => ({ data: new RawJson('[{"cla_type":"x"}]') }),
      // The generic multipart and NOT_IMPLEMENTED checks run on the firmware calls with their handlers taken away.
      romList: undefined,
      romAdd: undefined,
    },
  });
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

const url = (name: CallName) => callUrl(calls[name], server.config.bases);

async function post(name: CallName, payload: string, contentType = 'application/x-www-form-urlencoded') {
  const res = await server.app.inject({ method: 'POST', url: url(name), headers: { 'content-type': contentType }, payload });
  return { status: res.statusCode, body: res.json() };
}

describe('routes and the registry', () => {
  it('registers POST <base><path> for every registry call, and no other POST route but the device media upload and the dock upload ingest', () => {
    const urls = callRoutes(server.config.bases).map((r) => r.url);
    expect(urls).toHaveLength(CALL_LIST.length);
    expect(new Set(urls).size).toBe(urls.length);
    for (const name of Object.keys(calls) as CallName[]) {
      expect(server.app.hasRoute({ method: 'POST', url: url(name) })).toBe(true);
    }
    // The device media upload (contracts MEDIA_UPLOAD_PATH) and the dock upload ingest's S3 multipart calls
    // are device-facing HTTP, not console calls.
    const deviceFacing = [MEDIA_UPLOAD_PATH, `${INGEST_PATH}/:bucket/*`];
    const registered = server.app.nest.routes.filter((r) => r.method === 'POST' && !deviceFacing.includes(r.url)).map((r) => r.url);
    expect(registered.sort()).toEqual([...urls].sort());
  });

  it('honours configured service bases', async () => {
    const other = await server.rebuild({ bases: { ...server.config.bases, user: '/svc/people' } });
    const res = await other.inject({
      method: 'POST',
      url: '/svc/people/user/info',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: browserPayload('userInfo', {}, admin.token).toString(),
    });
    expect(res.json().code).toBe(ResultCode.OK);
    const old = await other.inject({ method: 'POST', url: '/api/user/user/info' });
    expect(old.statusCode).toBe(404);
  });

  it('answers 404 NO_SUCH_CALL for any other path under /api', async () => {
    for (const path of ['/api/user/nope', '/api/nothing', '/api/device/device/list/extra']) {
      const res = await server.app.inject({ method: 'POST', url: path, headers: { 'accept-language': 'en' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: ResultCode.NO_SUCH_CALL, msg: codeText(ResultCode.NO_SUCH_CALL, 'en'), data: null });
    }
    const get = await server.app.inject({ method: 'GET', url: url('login') });
    expect(get.statusCode).toBe(404);
    expect(get.json()).toMatchObject({ code: ResultCode.NO_SUCH_CALL, msg: codeText(ResultCode.NO_SUCH_CALL, 'zh') });
  });
});

describe('bodies', () => {
  it('refuses other content types with UNSUPPORTED_MEDIA (HTTP 415)', async () => {
    const json = await post('userInfo', JSON.stringify({ app_type: '3' }), 'application/json');
    expect(json.status).toBe(415);
    expect(json.body.code).toBe(ResultCode.UNSUPPORTED_MEDIA);
    const text = await post('userInfo', 'app_type=3', 'text/plain');
    expect(text.status).toBe(415);
    expect(text.body.code).toBe(ResultCode.UNSUPPORTED_MEDIA);
    const none = await server.app.inject({ method: 'POST', url: url('userInfo') });
    expect(none.statusCode).toBe(415);
    expect(none.json().code).toBe(ResultCode.UNSUPPORTED_MEDIA);
  });

  it('refuses multipart for a form call and a form for a multipart call', async () => {
    const boundary = 'xyz';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="app_type"\r\n\r\n3\r\n--${boundary}--\r\n`;
    const res = await post('userInfo', multipart, `multipart/form-data; boundary=${boundary}`);
    expect(res.status).toBe(415);
    expect(res.body.code).toBe(ResultCode.UNSUPPORTED_MEDIA);
    const form = await post('romAdd', browserPayload('romAdd', {}, admin.token).toString());
    expect(form.status).toBe(415);
  });

  it('accepts multipart for a multipart call and runs the same checks', async () => {
    const boundary = 'b0undary';
    const fields = Object.fromEntries(browserPayload('romAdd', { type: 17, version_code: 1, version_name: 'v1' }, admin.token));
    let payload = '';
    for (const [k, v] of Object.entries(fields)) {
      payload += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
    }
    payload += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wkimg"\r\nContent-Type: application/octet-stream\r\n\r\nDATA\r\n--${boundary}--\r\n`;
    const res = await post('romAdd', payload, `multipart/form-data; boundary=${boundary}`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(ResultCode.NOT_IMPLEMENTED);
    // Without a token the multipart call stops at the access check.
    const anonymous = payload.replace(`name="token"\r\n\r\n${admin.token}`, 'name="token"\r\n\r\n');
    expect((await post('romAdd', anonymous, `multipart/form-data; boundary=${boundary}`)).body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });

  it('enforces multipart limits (file size, field size) and removes uploads afterwards', async () => {
    const small = await server.rebuild({ uploadMaxBytes: 16, firmwareMaxBytes: 16 });
    const boundary = 'limits';
    // A complete form: the call fields are checked before the file is read.
    const common = Object.fromEntries(browserPayload('romAdd', { type: 17, version_code: 1, version_name: 'v1', description: 'd', description_en: 'd' }, admin.token));
    const build = (extra: Record<string, string>, file: string) => {
      let payload = '';
      for (const [k, v] of Object.entries({ ...common, ...extra })) {
        payload += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
      }
      return `${payload}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.wkimg"\r\n\r\n${file}\r\n--${boundary}--\r\n`;
    };
    const send = async (payload: string) => {
      const res = await small.inject({
        method: 'POST',
        url: url('romAdd'),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      return { status: res.statusCode, body: res.json() };
    };
    const tmp = path.join(server.dataDir, 'tmp');
    // Within the limits the call reaches the firmware handler, which refuses a file that is no .wkimg package.
    const ok = await send(build({}, 'tiny'));
    expect(ok.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(await readdir(tmp)).toEqual([]);
    const big = await send(build({}, 'x'.repeat(1000)));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe(ResultCode.PAYLOAD_TOO_LARGE);
    const longField = await send(build({ description: 'd'.repeat(MULTIPART_FIELD_LIMIT + 10) }, 'tiny'));
    expect(longField.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field description is too long' });
    expect(await readdir(tmp)).toEqual([]);
  });

  it('refuses a form body over 1 MB with PAYLOAD_TOO_LARGE (HTTP 413)', async () => {
    const big = `${browserPayload('userInfo', {}, admin.token)}&notes=${'a'.repeat(FORM_BODY_LIMIT)}`;
    const res = await post('userInfo', big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(ResultCode.PAYLOAD_TOO_LARGE);
  });

  it('refuses repeated keys with BAD_REQUEST naming the field', async () => {
    const res = await post('userInfo', `${browserPayload('userInfo', {}, admin.token)}&token=other`);
    expect(res.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field token appears more than once' });
  });

  it('keeps __proto__ and constructor as plain data', async () => {
    const payload = `${browserPayload('userInfo', {}, admin.token)}&__proto__[polluted]=1&constructor=x&__proto__=y`;
    const res = await post('userInfo', payload);
    expect(res.body.code).toBe(ResultCode.OK);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const login = await post('login', `${browserPayload('login', { account: '13900000000', password: 'x' }, '')}&__proto__=1`);
    expect(login.body.code).not.toBe(ResultCode.SERVER_ERROR);
  });
});

describe('common fields', () => {
  it('requires app_type 3 and os_timestamp, naming the field', async () => {
    const missing = await admin.call('userInfo', {}, { omit: ['app_type'] });
    expect(missing.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field app_type is required' });
    const wrong = await post('userInfo', browserPayload('userInfo', {}, admin.token).toString().replace('app_type=3', 'app_type=4'));
    expect(wrong.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field app_type is invalid' });
    const stamp = await admin.call('userInfo', {}, { omit: ['os_timestamp'], lang: 'zh' });
    expect(stamp.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: '字段 os_timestamp 不能为空' });
  });

  it('answers in the language of os_language', async () => {
    const zh = await admin.call('userInfo', {}, { lang: 'zh', pmd: '0'.repeat(32) });
    expect(zh.body.msg).toBe(codeText(ResultCode.BAD_SIGNATURE, 'zh'));
    const en = await admin.call('userInfo', {}, { lang: 'en', pmd: '0'.repeat(32) });
    expect(en.body.msg).toBe(codeText(ResultCode.BAD_SIGNATURE, 'en'));
  });
});

describe('order of checks', () => {
  it('asks for a live session before anything else on protected calls', async () => {
    const res = await admin.call('userList', { page: 0 }, { token: '' });
    expect(res.body.code).toBe(ResultCode.LOGIN_EXPIRED);
    const bogus = await admin.call('userList', { page: 0 }, { token: 'not-a-token', pmd: 'bad' });
    expect(bogus.body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });

  it('checks the signature before the function id', async () => {
    const limited = await userClient(server, { funList: [] });
    const bad = await limited.call('userList', { page: 0 }, { pmd: '0'.repeat(32) });
    expect(bad.body.code).toBe(ResultCode.BAD_SIGNATURE);
    const good = await limited.call('userList', { page: 0 });
    expect(good.status).toBe(401);
    expect(good.body.code).toBe(ResultCode.NO_PERMISSION);
  });

  it('answers NOT_IMPLEMENTED (HTTP 200) for a registry call without handler, after the checks', async () => {
    const res = await admin.call('romList', { page: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: ResultCode.NOT_IMPLEMENTED, msg: codeText(ResultCode.NOT_IMPLEMENTED, 'en'), data: null });
    const limited = await userClient(server, { funList: [] });
    expect((await limited.call('romList', { page: 0 })).status).toBe(401);
  });

  it('rejects a stale timestamp on timestamp-flagged calls', async () => {
    const res = await admin.call('login', { account: '13900000000', password: 'x' }, { token: '', timestamp: Date.now() - 10 * 60_000 });
    expect(res.body.code).toBe(ResultCode.STALE_TIMESTAMP);
    const future = await admin.call('login', { account: '13900000000', password: 'x' }, { token: '', timestamp: Date.now() + 10 * 60_000 });
    expect(future.body.code).toBe(ResultCode.STALE_TIMESTAMP);
  });
});

describe('handler failures', () => {
  it('maps a CallError thrown by a handler to its code', async () => {
    const res = await admin.call('userGetDeviceType');
    expect(res.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('answers SERVER_ERROR (HTTP 500) for anything else, and nothing is half-applied', async () => {
    const res = await admin.call('missionType');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: ResultCode.SERVER_ERROR, msg: codeText(ResultCode.SERVER_ERROR, 'en'), data: null });
    const row = await server.db.selectFrom('settings').selectAll().where('key', '=', 'half-applied').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('puts an answer given as JSON text into the envelope as it is, and checks it against the schema like any answer', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: url('deviceTypeList'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: browserPayload('deviceTypeList', {}, admin.token).toString(),
    });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe(JSON.stringify({ code: ResultCode.OK, msg: codeText(ResultCode.OK, 'en'), data: [] }));
    const refused = await admin.call('videoDeviceTypeList');
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({ code: ResultCode.SERVER_ERROR, msg: codeText(ResultCode.SERVER_ERROR, 'en'), data: null });
  });

  it('answers SERVER_ERROR (HTTP 500) for an answer that does not match its call\'s answer schema (tests check answers)', async () => {
    expect(server.config.checkAnswers).toBe(true);
    const res = await admin.call('alarmStats');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: ResultCode.SERVER_ERROR, msg: codeText(ResultCode.SERVER_ERROR, 'en'), data: null });
  });
});

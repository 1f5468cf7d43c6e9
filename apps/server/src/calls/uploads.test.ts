import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { FIRMWARE_FILE_FIELD, ResultCode, TEACHING_VIDEO_FILE_FIELD, calls, callUrl, type CallName, type Envelope } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { DEFAULT_UPLOADS_AT_ONCE, DEFAULT_UPLOADS_PER_USER, loadConfig } from '../config.js';
import { adminClient, browserPayload, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { until } from '../../test/live.js';
import { UPLOAD_TEXTS } from './uploads.js';

/**
 * File uploads (/rom/add, /teach/add) are checked before their file is read: common fields, session,
 * signature, function and the upload limits run on the text fields, which come first; a refused upload
 * reads no more than the parser's buffers of its file and writes nothing to the data directory, whether it
 * is refused, over the limits, truncated or abandoned by its client.
 */

const MIB = 1024 * 1024;
const HUGE = 300 * MIB;
const BOUNDARY = 'nestuploadtest';
const ROM_FIELDS: Fields = { type: 17, version_code: 41, version_name: '4.1', description: '测试', description_en: 'test' };
const TEACH_FIELDS: Fields = { title: 'Lesson', cla_type: 0 };
const UPLOADS: { name: CallName; fields: Fields; field: string; file: string }[] = [
  { name: 'romAdd', fields: ROM_FIELDS, field: FIRMWARE_FILE_FIELD, file: 'nest.wkimg' },
  { name: 'teachAdd', fields: TEACH_FIELDS, field: TEACHING_VIDEO_FILE_FIELD, file: 'lesson.mp4' },
];

/** JSON log lines the app under test wrote (pino levels: 40 warn, 50 error). */
class LogLines {
  readonly lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  write(line: string): void {
    this.lines.push(JSON.parse(line) as LogLines['lines'][number]);
  }
  atLeast(level: number) {
    return this.lines.filter((l) => l.level >= level);
  }
}

let server: TestServer;
let app: FastifyInstance;
let logs: LogLines;
let admin: TestClient;
let manager: TestClient;
let other: TestClient;
let nobody: TestClient;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  logs = new LogLines();
  // The app under test: the same data directory and database, at most one upload per user and two in all,
  // logging warnings into `logs`.
  app = await buildApp({ ...server.config, logLevel: 'warn', uploadsPerUser: 1, uploadsAtOnce: 2 }, { logStream: logs });
  admin = await adminClient(server);
  // Whatever function the registry asks for each upload call.
  manager = await userClient(server, { funList: [...new Set([calls.romAdd.access, calls.teachAdd.access])] });
  other = await userClient(server, { funList: [calls.romAdd.access] });
  nobody = await userClient(server, { funList: ['rom_list', 'menu_teachingVideos'] });
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

const tmpDir = () => path.join(server.dataDir, 'tmp');
const tmpFiles = async () => (existsSync(tmpDir()) ? readdir(tmpDir()) : []);

/** Every file and folder under DATA_DIR with its size, but the database files (sessions are read and touched). */
async function dataTree(dir = server.dataDir, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = `${prefix}${entry.name}`;
    if (rel.startsWith('nest.sqlite')) continue;
    if (entry.isDirectory()) out.push(`${rel}/`, ...(await dataTree(path.join(dir, entry.name), `${rel}/`)));
    else out.push(`${rel} ${(await stat(path.join(dir, entry.name))).size}`);
  }
  return out.sort();
}

const fieldPart = (k: string, v: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
const fileHead = (field: string, name: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const END = `\r\n--${BOUNDARY}--\r\n`;

/** The signed fields the browser sends for `name` (token '' when `token` is null), as multipart parts. */
function signedParts(name: CallName, fields: Fields, token: string, lang: 'zh' | 'en' = 'en'): string {
  let out = '';
  for (const [k, v] of browserPayload(name, fields, token, { lang })) out += fieldPart(k, v);
  return out;
}

/**
 * A multipart body whose file part is `size` zero bytes made on demand, 1 MiB at a time: `pulled` says how
 * much of the body the server has read. With `hold`, the body stops after `hold` file bytes until
 * `release()`, then goes on.
 */
function streamedBody(before: string, field: string, name: string, size: number, opts: { after?: string; hold?: number; truncate?: boolean } = {}) {
  const head = Buffer.from(before + fileHead(field, name));
  const tail = Buffer.from((opts.after ?? '') + END);
  const chunk = Buffer.alloc(MIB);
  let sent = 0;
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
  let held: (() => void) | null = null;
  let released = false;
  const state = { pulled: 0 };
  // Makes the next piece; while held, none (the stream's pending read is answered on release).
  function produce(this: Readable): void {
    const push = (b: Buffer) => {
      state.pulled += b.length;
      this.push(b);
    };
    if (stage === 'head') {
      stage = 'file';
      return push(head);
    }
    if (stage === 'file') {
      if (opts.hold !== undefined && sent >= opts.hold && !released) {
        held = () => produce.call(this);
        return;
      }
      if (sent < size) {
        const n = Math.min(MIB, size - sent, opts.hold !== undefined && !released ? opts.hold - sent : MIB);
        sent += n;
        return push(chunk.subarray(0, n));
      }
      stage = opts.truncate ? 'done' : 'tail';
    }
    if (stage === 'tail') {
      stage = 'done';
      return push(tail);
    }
    this.push(null);
  }
  const stream = new Readable({ read: produce });
  const total = head.length + size + tail.length;
  return {
    stream,
    total,
    get pulled() {
      return state.pulled;
    },
    release() {
      released = true;
      const go = held;
      held = null;
      go?.();
    },
  };
}

async function post(name: CallName, body: Readable | Buffer | string, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: callUrl(calls[name], server.config.bases),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'accept-language': 'en', ...headers },
    payload: body,
  });
  return { status: res.statusCode, body: res.json<Envelope>(), headers: res.headers };
}

describe('uploads are checked before their file is read', () => {
  it('an unauthenticated 300 MiB upload to either call is refused before its file, reads almost none of it and writes nothing', async () => {
    const before = await dataTree();
    for (const u of UPLOADS) {
      const cases: { what: string; fields: string; code: number; msg?: string }[] = [
        { what: 'no fields at all', fields: '', code: ResultCode.BAD_REQUEST, msg: UPLOAD_TEXTS.fieldBeforeFile('app_type')('en') },
        { what: 'no os_timestamp', fields: fieldPart('app_type', '3'), code: ResultCode.BAD_REQUEST, msg: UPLOAD_TEXTS.fieldBeforeFile('os_timestamp')('en') },
        { what: 'signed without a token', fields: signedParts(u.name, u.fields, ''), code: ResultCode.LOGIN_EXPIRED },
        { what: 'signed with an unknown token', fields: signedParts(u.name, u.fields, 'f'.repeat(64)), code: ResultCode.LOGIN_EXPIRED },
      ];
      for (const c of cases) {
        const body = streamedBody(c.fields, u.field, u.file, HUGE);
        const res = await post(u.name, body.stream, { 'content-length': String(body.total) });
        expect(res.body, `${u.name}, ${c.what}`).toMatchObject({ code: c.code, data: null });
        if (c.msg) expect(res.body.msg).toBe(c.msg);
        // The answer came before the file: the server read at most its parser's buffers of it.
        expect(body.pulled, `${u.name}, ${c.what}`).toBeLessThan(16 * MIB);
        expect(res.headers.connection).toBe('close');
        body.stream.destroy();
      }
    }
    expect(await dataTree()).toEqual(before);
    expect(await tmpFiles()).toEqual([]);
  });

  it('a signed-in user without the function, a wrong signature or a stale timestamp: refused before the file, nothing written', async () => {
    const before = await dataTree();
    for (const u of UPLOADS) {
      const noFunction = streamedBody(signedParts(u.name, u.fields, nobody.token), u.field, u.file, HUGE);
      const refused = await post(u.name, noFunction.stream);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe(ResultCode.NO_PERMISSION);
      expect(noFunction.pulled).toBeLessThan(16 * MIB);
      noFunction.stream.destroy();

      const forged = signedParts(u.name, u.fields, manager.token).replace(/name="pmd"\r\n\r\n[0-9a-f]+/, `name="pmd"\r\n\r\n${'0'.repeat(32)}`);
      const badSignature = streamedBody(forged, u.field, u.file, HUGE);
      expect((await post(u.name, badSignature.stream)).body.code).toBe(ResultCode.BAD_SIGNATURE);
      expect(badSignature.pulled).toBeLessThan(16 * MIB);
      badSignature.stream.destroy();

      // Call fields are checked before the file too (a form the handler would refuse after a long upload).
      const badForm = streamedBody(signedParts(u.name, { ...u.fields, ...(u.name === 'romAdd' ? { version_code: 'x' } : { title: '' }) }, manager.token), u.field, u.file, HUGE);
      expect((await post(u.name, badForm.stream)).body.code).toBe(ResultCode.BAD_REQUEST);
      expect(badForm.pulled).toBeLessThan(16 * MIB);
      badForm.stream.destroy();
    }
    // romAdd signs its timestamp: an old one is refused before the file.
    let stale = '';
    for (const [k, v] of browserPayload('romAdd', ROM_FIELDS, manager.token, { timestamp: Date.now() - 3_600_000 })) stale += fieldPart(k, v);
    const old = streamedBody(stale, FIRMWARE_FILE_FIELD, 'nest.wkimg', HUGE);
    expect((await post('romAdd', old.stream)).body.code).toBe(ResultCode.STALE_TIMESTAMP);
    old.stream.destroy();
    expect(await dataTree()).toEqual(before);
  });

  it('fields after the file part are refused, in the caller language, and nothing is kept', async () => {
    for (const u of UPLOADS) {
      for (const lang of ['en', 'zh'] as const) {
        // pmd after the file (what the console sent before it put every field first).
        const signed = signedParts(u.name, u.fields, manager.token, lang);
        const pmd = /--[^\r]+\r\nContent-Disposition: form-data; name="pmd"\r\n\r\n[0-9a-f]+\r\n/.exec(signed)![0];
        const late = await post(u.name, Buffer.from(signed.replace(pmd, '') + fileHead(u.field, u.file) + 'DATA\r\n' + pmd + `--${BOUNDARY}--\r\n`));
        expect(late.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: UPLOAD_TEXTS.fieldBeforeFile('pmd')(lang) });
        // Every check passes before the file, but a field follows it.
        const after = await post(u.name, Buffer.from(signed + fileHead(u.field, u.file) + 'DATA\r\n' + fieldPart('notes', 'late') + `--${BOUNDARY}--\r\n`));
        expect(after.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: UPLOAD_TEXTS.fieldBeforeFile('notes')(lang) });
      }
    }
    expect(await tmpFiles()).toEqual([]);
  });
});

describe('truncated and malformed multipart bodies', () => {
  it('answer BAD_REQUEST with HTTP 400 and a localised msg, logged at warn without an error line, and keep no file', async () => {
    const errorsBefore = logs.atLeast(50).length;
    const warnsBefore = logs.lines.filter((l) => l.level === 40 && /malformed multipart/.test(l.msg)).length;
    for (const u of UPLOADS) {
      for (const lang of ['en', 'zh'] as const) {
        const signed = signedParts(u.name, u.fields, manager.token, lang);
        const bodies: [string, Readable | string][] = [
          // Cut in the middle of the file: the checks passed, the file was being written.
          ['inside the file', streamedBody(signed, u.field, u.file, 3 * MIB, { truncate: true }).stream],
          // Cut inside a field, before any file.
          ['inside a field', signed.slice(0, signed.length - 20)],
          // Cut right after the file part's headers.
          ['after the file headers', signed + fileHead(u.field, u.file)],
        ];
        for (const [what, body] of bodies) {
          const res = await post(u.name, body, { 'accept-language': lang === 'zh' ? 'zh-CN' : 'en' });
          expect(res.status, `${u.name} ${what}`).toBe(400);
          expect(res.body, `${u.name} ${what}`).toEqual({ code: ResultCode.BAD_REQUEST, msg: UPLOAD_TEXTS.malformed(lang), data: null });
        }
      }
      // multipart/form-data without a boundary: nothing can be parsed.
      const noBoundary = await app.inject({ method: 'POST', url: callUrl(calls[u.name], server.config.bases), headers: { 'content-type': 'multipart/form-data' }, payload: 'x' });
      expect(noBoundary.statusCode).toBe(400);
      expect(noBoundary.json<Envelope>()).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: UPLOAD_TEXTS.malformed('zh') });
    }
    expect(await tmpFiles()).toEqual([]);
    expect(logs.atLeast(50).slice(errorsBefore)).toEqual([]);
    const warns = logs.lines.filter((l) => l.level === 40 && /malformed multipart/.test(l.msg)).length - warnsBefore;
    expect(warns).toBe(UPLOADS.length * 7);
  });

  it('a client that goes away mid-upload leaves no file and gives its upload slot back', async () => {
    const errorsBefore = logs.atLeast(50).length;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: callUrl(calls.romAdd, server.config.bases),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(10 * MIB) },
    });
    const gone = new Promise<void>((resolve) => req.once('close', () => resolve()));
    req.on('error', () => undefined);
    req.write(signedParts('romAdd', ROM_FIELDS, manager.token) + fileHead(FIRMWARE_FILE_FIELD, 'nest.wkimg'));
    req.write(Buffer.alloc(MIB));
    // The checks passed and the file is being written...
    await until(async () => {
      const [name] = await tmpFiles();
      return name !== undefined && ((await stat(path.join(tmpDir(), name)).catch(() => null))?.size ?? 0) > 0;
    }, 'the first bytes of the file in DATA_DIR/tmp');
    // ...when the client goes away.
    req.destroy();
    await gone;
    await until(async () => (await tmpFiles()).length === 0, 'the abandoned upload removed from DATA_DIR/tmp');
    // Its slot is free again: the same user (one upload at a time here) gets past the limit to the handler.
    const again = await post('romAdd', signedParts('romAdd', ROM_FIELDS, manager.token) + fileHead(FIRMWARE_FILE_FIELD, 'nest.wkimg') + 'DATA' + END);
    expect(again.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(again.body.msg).toMatch(/wkimg/);
    expect(logs.atLeast(50).slice(errorsBefore)).toEqual([]);
    expect(await tmpFiles()).toEqual([]);
  });
});

describe('upload limits (UPLOADS_PER_USER, UPLOADS_AT_ONCE)', () => {
  it('reads the documented settings', () => {
    expect(loadConfig({})).toMatchObject({ uploadsPerUser: DEFAULT_UPLOADS_PER_USER, uploadsAtOnce: DEFAULT_UPLOADS_AT_ONCE });
    expect(loadConfig({ UPLOADS_PER_USER: '3', UPLOADS_AT_ONCE: '10' })).toMatchObject({ uploadsPerUser: 3, uploadsAtOnce: 10 });
    expect(() => loadConfig({ UPLOADS_PER_USER: '0' })).toThrow(/UPLOADS_PER_USER must be an integer from 1 to 100/);
    expect(() => loadConfig({ UPLOADS_AT_ONCE: 'many' })).toThrow(/UPLOADS_AT_ONCE must be an integer from 1 to 1000/);
  });

  it('one more upload than a user or the server may have answers UPLOAD_BUSY before its file, and a finished upload frees its slot', async () => {
    const start = (client: TestClient, name: CallName = 'romAdd') => {
      const u = UPLOADS.find((x) => x.name === name)!;
      const body = streamedBody(signedParts(name, u.fields, client.token), u.field, u.file, 2 * MIB, { hold: MIB });
      return { body, answer: post(name, body.stream) };
    };
    const small = (client: TestClient, name: CallName, lang: 'zh' | 'en' = 'en') => {
      const u = UPLOADS.find((x) => x.name === name)!;
      return post(name, signedParts(name, u.fields, client.token, lang) + fileHead(u.field, u.file) + 'DATA' + END);
    };
    const filesWritten = async (n: number) => until(async () => (await tmpFiles()).length === n, `${n} upload(s) being written in DATA_DIR/tmp`);

    // The manager's first upload is under way (its file is being written, so it holds its slot).
    const first = start(manager);
    await filesWritten(1);
    // A second one of the same user, to either call: refused before its file, in the caller's language.
    for (const lang of ['en', 'zh'] as const) {
      for (const name of ['romAdd', 'teachAdd'] as const) {
        const busy = await small(manager, name, lang);
        expect(busy.status).toBe(429);
        expect(busy.body).toEqual({ code: ResultCode.UPLOAD_BUSY, msg: UPLOAD_TEXTS.userBusy(lang), data: null });
      }
    }
    expect(await tmpFiles()).toHaveLength(1);
    // Another user may upload: the second of two slots.
    const second = start(other);
    await filesWritten(2);
    // Both slots taken: a third user is told the server is busy.
    const third = await small(admin, 'romAdd');
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ code: ResultCode.UPLOAD_BUSY, msg: UPLOAD_TEXTS.serverBusy('en'), data: null });
    // The limits apply to what is checked first: an unauthenticated caller still hears that it is not signed in.
    expect((await small({ token: '' } as TestClient, 'romAdd')).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect(await tmpFiles()).toHaveLength(2);

    // The first upload finishes (the handler refuses its zeros as no .wkimg package): its slot is free again.
    first.body.release();
    expect((await first.answer).body.msg).toMatch(/wkimg/);
    const later = await small(manager, 'teachAdd');
    expect(later.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(later.body.msg).toBe('The file content is not an MP4 or WebM video');
    second.body.release();
    expect((await second.answer).body.code).toBe(ResultCode.BAD_REQUEST);
    expect(await tmpFiles()).toEqual([]);
  });
});

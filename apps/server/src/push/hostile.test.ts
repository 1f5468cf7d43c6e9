import { APP_CODE, APP_IDS, PUSH_MAX_FRAME_BYTES, PushMsgId, ResultCode, type PushReply } from '@nest/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, listen, registerDevice, sleep } from '../../test/live.js';
import { CLOSE_POLICY, PUSH_FLOOD_FRAMES_PER_SECOND } from './hub.js';

/**
 * Hostile push frames: malformed JSON, wrong types for every message id (data drawn by
 * fast-check with a fixed seed), binary and oversized frames, floods. Every frame gets a defined code
 * with a message in the socket's language (or, for a flood, a policy close); never SERVER_ERROR; the
 * server stays healthy (another socket still verifies and beats) and no row changes.
 */

let server: TestServer;
let admin: TestClient;
let base: string;
const CODES = new Set<number>(Object.values(ResultCode));
const CJK = /[\u4e00-\u9fff]/;

beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
  await registerDevice(server, { sn_id: 'PUSH-FUZZ' });
  base = await listen(server);
});
afterAll(async () => server?.close());

/** Row count of every table: equal before and after = nothing stored. */
async function counts(): Promise<Record<string, number>> {
  const names =
    server.databaseUrl === null
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(server.db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(server.db);
  const out: Record<string, number> = {};
  for (const { name } of names.rows) {
    if (name === 'sessions' || name === 'audit_log') continue;
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(server.db);
    out[name] = Number(r.rows[0]?.n ?? 0);
  }
  return out;
}

/**
 * Sends at most `perSecond` frames a second on one socket (below the flood limit), by the time the server sees
 * them arrive: a frame goes out only a second after the answer to the frame `perSecond` places before it came
 * back (that one had arrived by then), so the server never counts more than `perSecond` within a second.
 */
class Paced {
  /** For each frame sent, when its answer had come back (Infinity until then). */
  private answered: number[] = [];
  constructor(
    readonly s: PushSocket,
    private readonly perSecond = PUSH_FLOOD_FRAMES_PER_SECOND - 10,
  ) {}
  async send(frame: string | Buffer, binary = false): Promise<void> {
    for (;;) {
      const back = this.answered[this.answered.length - this.perSecond];
      if (back === undefined || Date.now() - back >= 1000) break;
      if (back === Infinity) throw new Error('more frames unanswered than may be sent in a second');
      await sleep(back + 1000 - Date.now());
    }
    this.answered.push(Infinity);
    this.s.ws.send(frame, { binary });
  }
  private marker = 100_000;
  /**
   * Sends a frame, then a marker frame (an unknown msg_id of its own, answered in order after the frame),
   * and answers every frame that came back before the marker's reply.
   */
  async exchange(frame: string | Buffer, binary = false): Promise<PushReply[]> {
    const from = this.s.frames.length;
    const marker = ++this.marker;
    await this.send(frame, binary);
    await this.send(JSON.stringify({ msg_id: marker, tms: Date.now(), version: 0, data: {} }));
    await this.s.wait((f) => f.msg_id === marker, WAIT_LIMIT_MS, from);
    const now = Date.now();
    this.answered = this.answered.slice(-this.perSecond).map((t) => Math.min(t, now));
    const got = this.s.frames.slice(from);
    return got.slice(0, got.findIndex((f) => f.msg_id === marker));
  }
}

function judge(frames: PushReply[], lang: 'zh' | 'en', what: string, problems: string[]): void {
  for (const f of frames) {
    if (!CODES.has(f.code)) problems.push(`${what}: undefined code ${f.code}`);
    if (f.code === ResultCode.SERVER_ERROR) problems.push(`${what}: SERVER_ERROR on ${f.msg_id}`);
    if (typeof f.msg !== 'string' || !f.msg) problems.push(`${what}: empty msg`);
    else if (f.code !== ResultCode.OK && (lang === 'zh') !== CJK.test(f.msg)) problems.push(`${what}: msg not in ${lang}: ${f.msg}`);
  }
}

async function verifiedSocket(lang: 'zh' | 'en'): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  const reply = await s.request(PushMsgId.USER_VERIFY, { ...(await verifyData(admin)), os_language: lang });
  expect(reply.code).toBe(ResultCode.OK);
  return s;
}
const verifyData = async (c: TestClient) => ({ token: c.token, app_ids: APP_IDS, app_code: APP_CODE, licence: await c.licence(), os_language: 'en' });

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype'];
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1e308, -1e308, 'NaN', 'Infinity', '', 'PUSH-FUZZ', 'PUSH\u0000FUZZ', '\u0000', 'x'.repeat(300), [], {}, [1, 2]),
  fc.string({ maxLength: 10 }),
  fc.integer(),
  fc.double(),
);
const dataKeys = fc.constantFrom(...HOSTILE_KEYS, 'token', 'sn_id', 'pmd', 'vst', 'sor', 'licence', 'app_ids', 'app_code', 'os_language', 'on', 'cmd_type', 'control_cmd', 'x', 'y', 'z', 'r', 'mission_id', 'param');
/** JSON text of a data object with the given members (written by hand so `__proto__` stays a member). */
const dataText = fc.array(fc.tuple(dataKeys, hostileValue), { maxLength: 6 }).map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`);
const KNOWN_IDS = [...Object.values(PushMsgId), 0, -1, 999, 2 ** 31];

describe('hostile push frames', () => {
  it('wrong types for every message id, and malformed envelopes, on unverified and verified sockets', async () => {
    const before = await counts();
    const problems: string[] = [];
    const sockets = [new Paced(await PushSocket.open(base)), new Paced(await verifiedSocket('zh')), new Paced(await verifiedSocket('en'))];
    const langs: ('zh' | 'en')[] = ['zh', 'zh', 'en'];
    const envelopes = fc.sample(
      fc.oneof(
        fc.tuple(fc.constantFrom(...KNOWN_IDS), dataText).map(([id, data]) => `{"msg_id":${id},"tms":${Date.now()},"version":0,"data":${data}}`),
        fc.tuple(fc.constantFrom(...KNOWN_IDS), hostileValue, hostileValue, hostileValue).map(([id, tms, version, data]) => JSON.stringify({ msg_id: id, tms, version, data })),
        fc.tuple(hostileValue, dataText).map(([id, data]) => `{"msg_id":${JSON.stringify(id) ?? 0},"tms":1,"version":0,"data":${data}}`),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 40 }),
        fc.constantFrom('{', '{"msg_id":101', 'null', '[]', '"x"', '1e309', '{"msg_id":1e309,"tms":1,"version":0}', `{"msg_id":101,"tms":1,"version":0,"data":${'['.repeat(5000)}${']'.repeat(5000)}}`),
      ),
      { numRuns: 240, seed: 20261125 },
    );
    for (const [i, frame] of envelopes.entries()) {
      const k = i % sockets.length;
      judge(await sockets[k]!.exchange(frame), langs[k]!, frame.slice(0, 80), problems);
    }
    for (const p of sockets) expect(p.s.ws.readyState).toBe(p.s.ws.OPEN);
    expect(problems).toEqual([]);
    expect(await counts()).toEqual(before);
    for (const p of sockets) p.s.close();
  });

  it('binary frames, frames over the limit, huge msg_id text: BAD_REQUEST and the socket stays', async () => {
    const p = new Paced(await verifiedSocket('en'));
    const problems: string[] = [];
    const frames: [string | Buffer, boolean][] = [
      [Buffer.from([0, 1, 2, 255]), true],
      [Buffer.from(JSON.stringify({ msg_id: 101, tms: 1, version: 0, data: {} })), true],
      [JSON.stringify({ msg_id: 101, tms: 1, version: 0, data: { pad: 'x'.repeat(PUSH_MAX_FRAME_BYTES) } }), false],
      ['x'.repeat(PUSH_MAX_FRAME_BYTES * 4), false],
      [`{"msg_id":${'9'.repeat(400)},"tms":1,"version":0,"data":{}}`, false],
      [Buffer.alloc(PUSH_MAX_FRAME_BYTES + 1, 0xff), true],
    ];
    for (const [frame, binary] of frames) {
      const got = await p.exchange(frame, binary);
      expect(got.map((f) => f.code)).toEqual([ResultCode.BAD_REQUEST]);
      judge(got, 'en', String(frame).slice(0, 40), problems);
    }
    expect(problems).toEqual([]);
    p.s.close();
  });

  it('a flood is closed with 1008; another socket still verifies and beats, and the flooder may come back', async () => {
    const flooder = await verifiedSocket('en');
    const bystander = await verifiedSocket('en');
    for (let i = 0; i < PUSH_FLOOD_FRAMES_PER_SECOND * 4; i++) flooder.ws.send(i % 2 ? 'garbage' : JSON.stringify({ msg_id: 401, tms: 1, version: 0, data: { sn_id: 'PUSH-FUZZ', cmd_type: 'x' } }));
    expect(await flooder.closed).toBe(CLOSE_POLICY);
    expect((await bystander.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    const fresh = await verifiedSocket('en');
    expect((await fresh.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    bystander.close();
    fresh.close();
    // Many sockets flooding at once: all closed, the server still answers.
    const many = await Promise.all(Array.from({ length: 8 }, () => PushSocket.open(base)));
    for (const s of many) for (let i = 0; i < PUSH_FLOOD_FRAMES_PER_SECOND + 5; i++) s.ws.send('{}');
    expect(await Promise.all(many.map((s) => s.closed))).toEqual(many.map(() => CLOSE_POLICY));
    const after = await verifiedSocket('zh');
    expect((await after.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
    after.close();
  });

  it('left no prototype polluted', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).token).toBeUndefined();
  });
});

import { ResultCode, SUPER_ADMINISTRATOR, calls, callUrl, isSuccess, type CallName, type Envelope } from '@nest/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPayload, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { registerDevice } from '../../test/live.js';
import { installWriteLog, type WriteLog } from '../../test/writes.js';
import { FORM_BODY_LIMIT } from './body.js';

/**
 * Hostile form input for every registry call with fields, sent by a super administrator so
 * access never hides a problem. Every answer must be an envelope with a defined code and a localised
 * message (zh with Chinese text, en without); never SERVER_ERROR. A refused call changes no row (a
 * snapshot of every table before and after); a call that accepts odd-but-valid input must have stored
 * what was sent. Three passes:
 * - every field of a call set to the same hostile value (type confusion, NaN / Infinity / 1e309, JSON
 *   objects and arrays where text belongs, __proto__ documents, oversized values), one request per value;
 * - one field hostile and the others valid (a baseline found from the field schemas), sampled with
 *   fast-check (the seed is printed on failure);
 * - body shapes: a repeated key, __proto__ / constructor / prototype keys, a body over the limit.
 */

const NAMES = (Object.keys(calls) as CallName[]).filter((n) => n !== 'logout' && Object.keys(shapeOf(n)).length > 0);

function shapeOf(name: CallName): Record<string, { safeParse(v: unknown): { success: boolean } }> {
  const fields = calls[name].fields as unknown as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }>; def?: { in?: { shape?: object } } };
  // timeRanged() wraps the object in a refinement: its shape is the inner object's.
  return (fields.shape ?? (fields as { _zod?: { def?: { in?: { shape?: object } } } })._zod?.def?.in?.shape ?? {}) as Record<string, { safeParse(v: unknown): { success: boolean } }>;
}

const OVERSIZE = 'x'.repeat(66_000);
const PROTO_DOC = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"lat":30,"lng":120}';
/** One value for every field at once: each kind of confusion a browser never sends. */
const ALL_FIELD_VALUES: readonly string[] = [
  '', ' ', 'NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '1e-400', '-1', '0', '1.5', '9007199254740993', '0x10', 'abc', 'true', 'null',
  '[]', '[1,2]', '["a","a"]', '{}', PROTO_DOC, `[${PROTO_DOC},${PROTO_DOC},${PROTO_DOC}]`, '__proto__', 'constructor', '\u0000', 'a\u0000b', '["\\u0000"]', '\ud800',
  `${'['.repeat(3000)}${']'.repeat(3000)}`, '<script>alert(1)</script>', "' OR 1=1 --", OVERSIZE,
];
/** Values for one field at a time (the others valid). */
const ONE_FIELD_VALUES: readonly string[] = [
  ...ALL_FIELD_VALUES,
  `[${'1,'.repeat(100_000)}1]`,
  JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ lat: 30 + i / 1e5, lng: 120, height: 50 }))),
  '1'.repeat(400),
  '{"lat":30,"lng":120,"height":10,"name":"\\u0000"}',
  '1e308',
  '-0',
  '99999999999999999999',
  JSON.stringify({ lat: 1e308, lng: -1e308 }),
  JSON.stringify({ lat: 'NaN', lng: 'Infinity' }),
  JSON.stringify([{ lat: 91, lng: 0 }, { lat: 0, lng: 181 }, { lat: 0, lng: 0 }]),
  '2,2,2',
  'a,,b',
];

/** Values a field schema may accept, tried in order to find a valid baseline for the other fields. */
const BASELINE_CANDIDATES: readonly string[] = [
  '1', '10', '0', 'fuzz-name', '13912345678', 'fuzz@nest.local', 'stable', 'custom', '["1"]', '[]', '{"lat":30,"lng":120}',
  JSON.stringify([{ lat: 30, lng: 120 }, { lat: 30.001, lng: 120 }, { lat: 30.001, lng: 120.001 }]),
  JSON.stringify([{ lat: 30, lng: 120, height: 50 }, { lat: 30.001, lng: 120, height: 50 }]),
  '{"lat":30,"lng":120,"alt":10,"name":"b"}', 'true', '2000', '20', '100', 'fun_list', 'FUZZ-SN', 'rtmp://127.0.0.1/x', 'a',
];

const RING = JSON.stringify([{ lat: 30, lng: 120 }, { lat: 30.001, lng: 120 }, { lat: 30.001, lng: 120.001 }]);
/** Valid values that reach further than the first candidate that parses (a registered device, a real fence). */
const BASELINE_BY_FIELD: Record<string, string> = {
  sn_id: 'FUZZ-SN',
  sn_ids: '["FUZZ-SN"]',
  waypoints: JSON.stringify([{ lat: 30.0002, lng: 120.0002, height: 50 }, { lat: 30.0005, lng: 120.0002, height: 50 }]),
  boundary: RING,
  polygon: RING,
  beacon: '{"lat":30,"lng":120,"height":10}',
  min_lat: '30',
  min_lng: '120',
  max_lat: '30.01',
  max_lng: '120.01',
  ids: '["1"]',
};
let fenceId = '';

function baselineOf(name: CallName): Fields {
  const out: Fields = {};
  for (const [key, schema] of Object.entries(shapeOf(name))) {
    const preferred = key === 'fence_id' && fenceId ? fenceId : BASELINE_BY_FIELD[key];
    if (preferred !== undefined && schema.safeParse(preferred).success) {
      out[key] = preferred;
      continue;
    }
    if (schema.safeParse(undefined).success) continue;
    const hit = BASELINE_CANDIDATES.find((c) => schema.safeParse(c).success);
    if (hit !== undefined) out[key] = hit;
  }
  return out;
}

/** Tables whose rows change for reasons other than the call's own data (who is signed in, audit of attempts). */
const BOOKKEEPING = new Set(['sessions', 'login_attempts', 'audit_log', 'kysely_migration', 'kysely_migration_lock']);

let server: TestServer;
let admin: TestClient;
const stats = new Map<number, number>();
let tables: string[] = [];
let writes: WriteLog;
const CODES = new Set<number>(Object.values(ResultCode));
const CJK = /[\u4e00-\u9fff]/;

beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: 'FUZZ-SN' });
  writes = await installWriteLog(server, BOOKKEEPING);
  tables = writes.tables;
  admin = await userClient(server, { funList: [SUPER_ADMINISTRATOR] });
  const fence = await admin.call<{ id: string }>('fenceAdd', { name: 'fuzz fence', max_height: 120, boundary: JSON.stringify([{ lat: 29.99, lng: 119.99 }, { lat: 30.01, lng: 119.99 }, { lat: 30.01, lng: 120.01 }, { lat: 29.99, lng: 120.01 }]), sn_id: 'FUZZ-SN' });
  fenceId = fence.body.data?.id ?? '';
  expect(fenceId).not.toBe('');
  await writes.take();
});

/** The shared super administrator, signed in again should a call have ended its session. */
async function superAdmin(): Promise<TestClient> {
  const res = await admin.call('userInfo');
  if (res.body.code === ResultCode.LOGIN_EXPIRED) admin = await userClient(server, { funList: [SUPER_ADMINISTRATOR] });
  return admin;
}
afterAll(async () => server?.close());

const takeWrites = (): Promise<string[]> => writes.take();
const settle = (): Promise<void> => writes.settle();

/** Every row of every table (bookkeeping tables aside), as text: equal snapshots = nothing changed. */
async function snapshot(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const t of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(server.db);
    out.set(t, rows.rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).sort());
  }
  return out;
}

function changedRows(before: Map<string, string[]>, after: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [t, rows] of after) {
    const old = new Set(before.get(t));
    for (const r of rows) if (!old.has(r)) out.push(`${t}: ${r}`);
    const now = new Set(rows);
    for (const r of before.get(t) ?? []) if (!now.has(r)) out.push(`${t} (gone): ${r}`);
  }
  return out;
}

type Body = { entries: [string, string][] };

/** Sends a body as the browser would (signed over the given fields), form-encoded or multipart. */
async function send(name: CallName, client: TestClient, fields: Fields, lang: 'zh' | 'en', extra: [string, string][] = []): Promise<{ status: number; body: Envelope }> {
  const def = calls[name];
  const params = browserPayload(name, fields, client.token, { lang });
  const body: Body = { entries: [...params.entries(), ...extra] };
  if (!def.multipart) {
    const text = body.entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const res = await server.app.inject({ method: 'POST', url: callUrl(def, server.config.bases), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: text });
    return { status: res.statusCode, body: res.json<Envelope>() };
  }
  const boundary = 'hostileform';
  let payload = '';
  for (const [k, v] of body.entries) payload += `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '%22')}"\r\n\r\n${v}\r\n`;
  payload += `--${boundary}--\r\n`;
  const res = await server.app.inject({ method: 'POST', url: callUrl(def, server.config.bases), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  return { status: res.statusCode, body: res.json<Envelope>() };
}

interface Problem {
  call: CallName;
  what: string;
  problem: string;
}

/**
 * Checks one answer; on a refusal the tables must be as they were. A success is allowed when every value
 * sent that the call stores came back out of the database as sent (trimmed), so nothing was mangled.
 */
async function judge(
  name: CallName,
  what: string,
  res: { status: number; body: Envelope },
  lang: 'zh' | 'en',
  before: Map<string, string[]>,
  sent: Fields,
  problems: Problem[],
): Promise<Map<string, string[]>> {
  const { code, msg } = res.body;
  const note = (problem: string) => problems.push({ call: name, what, problem });
  if (typeof code !== 'number' || !CODES.has(code)) note(`undefined code ${String(code)}`);
  if (code === ResultCode.SERVER_ERROR || res.status >= 500) note(`SERVER_ERROR (HTTP ${res.status})`);
  if (typeof msg !== 'string' || msg.trim() === '') note('empty msg');
  else if (lang === 'zh' && !CJK.test(msg)) note(`zh msg not Chinese: ${msg}`);
  else if (lang === 'en' && CJK.test(msg)) note(`en msg in Chinese: ${msg}`);
  const writes = await takeWrites();
  stats.set(code, (stats.get(code) ?? 0) + 1);
  if (!isSuccess(code)) {
    if (writes.length) note(`refused with ${code} but wrote: ${[...new Set(writes)].join(', ')}`);
    return before;
  }
  if (!writes.length) return before;
  // A job the call started (a map download cuts tiles in the background) must not be blamed on the next request.
  if (name === 'mapDown' && typeof (res.body.data as { id?: unknown } | null)?.id === 'string') {
    await admin.call('mapDownCancel', { id: (res.body.data as { id: string }).id });
  }
  await settle();
  // What the accepted call went on writing in the background is its own, not the next request's.
  await takeWrites();
  const after = await snapshot();
  const changed = changedRows(before, after);
  // Accepted: every text value sent that looks stored (a name-like field) must be in the changed rows as sent.
  for (const [k, v] of Object.entries(sent)) {
    // What a form can carry: lone surrogates become U+FFFD on the way (URL encoding), as in a browser.
    const s = String(v).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd').trim();
    if (!['name', 'nick', 'title', 'notes', 'description', 'describe', 'team', 'note', 'cla_name'].includes(k) || s === '') continue;
    if (changed.length && !changed.some((row) => row.includes(JSON.stringify(s).slice(1, -1)))) note(`accepted ${k}=${s.slice(0, 40)} but stored something else`);
  }
  return after;
}

const expectNoProblems = (problems: Problem[]): void => {
  expect(problems.map((p) => `${p.call} [${p.what}]: ${p.problem}`)).toEqual([]);
};

const label = (v: string): string => (v.length > 40 ? `${v.slice(0, 20)}...(${v.length})` : JSON.stringify(v));

describe('hostile form input on every call with fields', () => {
  it('covers the registry', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(70);
  });

  it.each(NAMES)('%s: every field confused at once', async (name) => {
    const admin = await superAdmin();
    const keys = Object.keys(shapeOf(name));
    const problems: Problem[] = [];
    await takeWrites();
    let before = await snapshot();
    for (const [i, value] of ALL_FIELD_VALUES.entries()) {
      const fields: Fields = Object.fromEntries(keys.map((k) => [k, value]));
      const lang = i % 2 ? 'zh' : 'en';
      const res = await send(name, admin, fields, lang);
      if (res.body.code === ResultCode.LOGIN_EXPIRED) problems.push({ call: name, what: label(value), problem: 'session lost' });
      before = await judge(name, `all=${label(value)}`, res, lang, before, fields, problems);
    }
    expectNoProblems(problems);
  });

  it('one field hostile, the others valid (sampled)', async () => {
    const admin = await superAdmin();
    const problems: Problem[] = [];
    await takeWrites();
    let before = await snapshot();
    const cases = fc.sample(
      fc.constantFrom(...NAMES).chain((name) => fc.tuple(fc.constant(name), fc.constantFrom(...Object.keys(shapeOf(name))), fc.constantFrom(...ONE_FIELD_VALUES), fc.constantFrom<'zh' | 'en'>('zh', 'en'))),
      { numRuns: 400, seed: 20261125 },
    );
    for (const [name, field, value, lang] of cases) {
      const fields = { ...baselineOf(name), [field]: value };
      const res = await send(name, admin, fields, lang);
      before = await judge(name, `${field}=${label(value)}`, res, lang, before, fields, problems);
    }
    expectNoProblems(problems);
  });

  it('body shapes: repeated keys, prototype keys, bodies over the limit', async () => {
    const admin = await superAdmin();
    const problems: Problem[] = [];
    await takeWrites();
    let before = await snapshot();
    for (const name of NAMES) {
      const fields = baselineOf(name);
      const first = Object.keys(shapeOf(name))[0]!;
      const shapes: [string, [string, string][], number | null][] = [
        ['repeated key', [[first, '1']], ResultCode.BAD_REQUEST],
        ['__proto__ key', [['__proto__', PROTO_DOC], ['constructor', PROTO_DOC], ['prototype', '1'], ['hasOwnProperty', '1']], null],
        ['bracket keys', [[`${first}[]`, '1'], [`${first}[__proto__][polluted]`, '1']], null],
        ['body over the limit', [['pad', 'x'.repeat(FORM_BODY_LIMIT + 10)]], calls[name].multipart ? null : ResultCode.PAYLOAD_TOO_LARGE],
      ];
      if (!(first in fields)) fields[first] = '1';
      for (const [i, [what, extra, expected]] of shapes.entries()) {
        const lang = i % 2 ? 'zh' : 'en';
        const res = await send(name, admin, fields, lang, extra);
        if (expected !== null && res.body.code !== expected) problems.push({ call: name, what, problem: `code ${res.body.code}, expected ${expected}` });
        before = await judge(name, what, res, lang, before, fields, problems);
      }
    }
    expectNoProblems(problems);
  });

  it('imported routes and fences (the browser reads the file, the server gets its JSON): hostile documents refused, nothing stored', async () => {
    const admin = await superAdmin();
    const problems: Problem[] = [];
    await takeWrites();
    const before = await snapshot();
    const ring = (pts: unknown[]) => JSON.stringify(pts);
    const boundaries = [
      ring([{ lat: 1e308, lng: 1e308 }, { lat: 30, lng: 120 }, { lat: 30.001, lng: 120.001 }]),
      `[{"lat":NaN,"lng":120},{"lat":30,"lng":120},{"lat":30.001,"lng":120.001}]`,
      ring([{ lat: 'NaN', lng: 'Infinity' }, { lat: 30, lng: 120 }, { lat: 30.001, lng: 120.001 }]),
      ring([{ lat: 90.0000001, lng: 120 }, { lat: 30, lng: 180.0000001 }, { lat: 30.001, lng: 120.001 }]),
      `[{"__proto__":{"lat":30,"lng":120}},{"lat":30,"lng":120},{"lat":30.001,"lng":120.001}]`,
      ring([{ lat: 30, lng: 120 }, { lat: 30, lng: 120 }, { lat: 30, lng: 120 }]),
      ring([{ lat: 30, lng: 120 }, { lat: 30.001, lng: 120.001 }, { lat: 30, lng: 120.001 }, { lat: 30.001, lng: 120 }]),
      ring(Array.from({ length: 1001 }, (_, i) => ({ lat: 30 + Math.sin(i) / 1000, lng: 120 + Math.cos(i) / 1000 }))),
      ring([[120, 30], [120.001, 30], [120.001, 30.001]]),
      '{"type":"Polygon","coordinates":[[[120,30],[120.001,30],[120.001,30.001],[120,30]]]}',
    ];
    for (const [i, boundary] of boundaries.entries()) {
      const lang = i % 2 ? 'zh' : 'en';
      const fields = { name: 'imported', max_height: 120, boundary, sn_id: 'FUZZ-SN' };
      await judge('fenceAdd', `boundary #${i}`, await send('fenceAdd', admin, fields, lang), lang, before, fields, problems);
    }
    const wp = (pts: unknown[]) => JSON.stringify(pts);
    const routes = [
      wp([{ lat: 30.0002, lng: 120.0002, height: 1e308 }, { lat: 30.0005, lng: 120.0002, height: 50 }]),
      wp([{ lat: 30.0002, lng: 120.0002, height: 'NaN' }, { lat: 30.0005, lng: 120.0002, height: 50 }]),
      wp([{ lat: 30.0002, lng: 120.0002, height: 50, hover: 1e9, speed: -1, gimbal_ctrl: { pitch: 'x', yaw: null } }, { lat: 30.0005, lng: 120.0002, height: 50 }]),
      wp([{ lat: 60, lng: 10, height: 50 }, { lat: 30.0005, lng: 120.0002, height: 50 }]),
      wp(Array.from({ length: 2001 }, (_, i) => ({ lat: 30.0002 + i / 1e7, lng: 120.0002, height: 50 }))),
      `[{"__proto__":{"height":50},"lat":30.0002,"lng":120.0002},{"lat":30.0005,"lng":120.0002,"height":50}]`,
      '{"waypoints":[]}',
    ];
    for (const [i, waypoints] of routes.entries()) {
      const lang = i % 2 ? 'zh' : 'en';
      const fields = { ...baselineOf('missionAdd'), name: 'imported', fence_id: fenceId, waypoints };
      await judge('missionAdd', `waypoints #${i}`, await send('missionAdd', admin, fields, lang), lang, before, fields, problems);
    }
    expectNoProblems(problems);
    // Every one refused: the tables are as they were.
    expect(changedRows(before, await snapshot())).toEqual([]);
    // The same calls take sound documents: the refusals above were the documents' doing.
    const fence = await send('fenceAdd', admin, { name: 'imported', max_height: 120, boundary: ring([{ lat: 40, lng: 100 }, { lat: 40.001, lng: 100 }, { lat: 40.001, lng: 100.001 }]), sn_id: 'FUZZ-SN' }, 'en');
    expect(fence.body.msg).toBe('Success');
    // The fuzz passes' accepted /nofly/add calls made no-fly zones over the baseline's area: they would
    // (rightly) refuse this route.
    await server.db.deleteFrom('no_fly_zones').execute();
    const mission = await send('missionAdd', admin, { ...baselineOf('missionAdd'), name: 'imported', fence_id: fenceId }, 'en');
    expect(mission.body.msg).toBe('Success');
    await takeWrites();
  });

  it('left no prototype polluted', () => {
    // The passes reached handlers: some calls accepted, some refused after validation.
    expect(stats.get(ResultCode.OK) ?? 0).toBeGreaterThan(50);
    expect(stats.get(ResultCode.NOT_FOUND_OBJECT) ?? 0).toBeGreaterThan(50);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect((Array.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });
});

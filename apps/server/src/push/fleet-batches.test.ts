// Database: SQLite only: the hub runs over in-memory doubles of the link, status board, directory and sessions; no database is read.
/**
 * 310 FLEET_UPDATE batches as the hub builds them once per scope and change counter: sockets that stand at
 * the same place share one batch, a socket that missed a batch (send buffer full) catches up with
 * everything since the last one it got, and a socket whose scope changed gets a complete batch again. The
 * hub's clock serves the period's sockets in phases, and a socket's batch leaves after its other frames of
 * the same turn. Sockets are test doubles (the bytes they would send are recorded); fleet periods run with
 * an injected clock.
 */
import { EventEmitter } from 'node:events';
import {
  DEVICE_PUSH_FUNCTION,
  FLEET_UPDATE_PERIOD_MS,
  PushMsgId,
  ResultCode,
  codeText,
  fleetUpdatePush,
  licencePlain,
  md5Hex,
  type PushReply,
} from '@nest/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeviceRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { fleetEntryOf } from '../devices/index.js';
import type { LiveDevice } from '../link/adapter.js';
import { ClusterBus } from './bus.js';
import { FLEET_PHASES, PUSH_BUFFER_LIMIT, PushClient, PushHub, SharedFrame, type PushPorts } from './hub.js';

const row = (sn: string, company: string): DeviceRow =>
  ({ sn_id: sn, company_id: company, azimuth: 0, airport_lat: 22.5, airport_lng: 114.05 }) as unknown as DeviceRow;

const rows = new Map<string, DeviceRow>(['A1', 'A2', 'A3'].map((sn) => [sn, row(sn, 'wk')]));
rows.set('X1', row('X1', 'gzGh'));
const live = new Map<string, LiveDevice>();
const link = Object.assign(new EventEmitter(), { device: (sn: string) => live.get(sn) });
const status = Object.assign(new EventEmitter(), { status: () => 1, snapshot: (sn: string) => ({ sn_id: sn, state: 1 }) });
/** Devices shared with each user (collaboration groups). */
const shares = new Map<string, Set<string>>();
const deps = {
  live: {
    link,
    status,
    directory: { generation: 0, get: (sn: string) => rows.get(sn), visible: (scope: { companyId: string; shared?: ReadonlySet<string> }) => [...rows.values()].filter((r) => r.company_id === scope.companyId || scope.shared?.has(r.sn_id)), onChange: () => () => undefined },
    bus: new ClusterBus(),
    video: { watch: () => undefined, unwatch: () => undefined },
  },
  changes: new EventEmitter(),
} as unknown as AppDeps;
const ports: PushPorts = {
  sessions: {
    tokenHash: (token) => token,
    find: (token) => Promise.resolve({ sessionId: token, token, user: { u_id: token, company_id: 'wk', nick: token }, funList: [DEVICE_PUSH_FUNCTION] } as never),
    access: () => Promise.resolve({ funList: [DEVICE_PUSH_FUNCTION], liveUntil: Math.floor(Date.now() / 1000) + 86_400 }),
    shared: (userId) => Promise.resolve(shares.get(userId) ?? new Set<string>()),
    forgetShares: () => undefined,
  },
  openLicence: (sealed) => sealed,
  fleetEntry: fleetEntryOf,
};
const quiet = () => undefined;
const hub = new PushHub(deps, ports, { debug: quiet, info: quiet, warn: quiet, error: quiet } as never);
afterAll(() => hub.close());

/** A socket double: what the hub sends is recorded; `bufferedAmount` is set by the test. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: PushReply[] = [];
  private readonly waiting = new Map<number, (reply: PushReply) => void>();
  send(text: string | Buffer): void {
    const reply = JSON.parse(text.toString()) as PushReply;
    this.sent.push(reply);
    this.waiting.get(reply.msg_id)?.(reply);
    this.waiting.delete(reply.msg_id);
  }
  close(): void {
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
  batches(): string[][] {
    return this.sent.filter((f) => f.msg_id === PushMsgId.FLEET_UPDATE).map((f) => fleetUpdatePush.parse(f.data).devices.map((d) => d.sn_id).sort());
  }
  /** Sends a frame as the browser would; resolves with the hub's answer. */
  request(msgId: number, data: object): Promise<PushReply> {
    const answered = new Promise<PushReply>((resolve) => this.waiting.set(msgId, resolve));
    this.emit('message', Buffer.from(JSON.stringify({ msg_id: msgId, tms: Date.now(), version: 0, data })), false);
    return answered;
  }
}

/** A socket of user `token` (company wk), verified and subscribed to fleet batches. */
async function subscribed(token: string): Promise<FakeSocket> {
  const ws = new FakeSocket();
  hub.attach(ws as never);
  const licence = md5Hex(licencePlain(token, 'ids', 'code'));
  expect((await ws.request(PushMsgId.USER_VERIFY, { token, app_ids: 'ids', app_code: 'code', licence, os_language: 'en' })).code).toBe(ResultCode.OK);
  expect((await ws.request(PushMsgId.FLEET_SUBSCRIBE, { on: true })).code).toBe(ResultCode.OK);
  return ws;
}

/** Positions handed out so far: every move goes somewhere new. */
let steps = 0;

/** New telemetry from these devices at a new nest position each (a change for fleet batches). */
function moved(...sns: string[]): void {
  for (const sn of sns) telemetry(sn, 22.5 + ++steps * 1e-5);
}

/** Telemetry from a device whose nest stands at `lat`. */
function telemetry(sn: string, lat: number): void {
  const d = {
    sn,
    online: true,
    rateHz: 1,
    firmware: null,
    heardAt: 0,
    telemetry: { nest: { lat, lng: 114.05 } } as LiveDevice['telemetry'],
    telemetryAt: 0,
    telemetryTs: 0,
    state: null,
    since: 0,
  };
  live.set(sn, d);
  link.emit('telemetry', sn, d);
}

/** The hub's clock for fleet periods, ahead of the wall clock so that its own timer finds every socket served. */
let clock = Date.now() + 3_600_000;
const period = (): void => hub.fleetTick((clock += FLEET_UPDATE_PERIOD_MS));

describe('310 batches built once per scope', () => {
  it('sockets at the same place get the same batch; a socket that missed one catches up; a new scope starts complete', async () => {
    const a = await subscribed('user-a');
    const b = await subscribed('user-b');
    // Each first batch is complete: the company's devices, never another company's.
    expect(a.batches()).toEqual([['A1', 'A2', 'A3']]);
    expect(b.batches()).toEqual([['A1', 'A2', 'A3']]);

    moved('A1', 'X1');
    period();
    expect(a.batches()[1]).toEqual(['A1']);
    expect(b.sent.at(-1)).toEqual(a.sent.at(-1));

    // b cannot keep up: its batch is dropped, a's goes out.
    b.bufferedAmount = PUSH_BUFFER_LIMIT + 1;
    moved('A2');
    period();
    expect(a.batches()[2]).toEqual(['A2']);
    expect(b.batches()).toHaveLength(2);

    // b drained: its next batch holds what changed since the last one it got (A2 and A3), a's only A3.
    b.bufferedAmount = 0;
    moved('A3');
    period();
    expect(a.batches()[3]).toEqual(['A3']);
    expect(b.batches()[2]).toEqual(['A2', 'A3']);

    // Nothing changed: no batch at all.
    period();
    expect(a.batches()).toHaveLength(4);

    // A device of another company is shared with a (read again with its session at a heartbeat): a's next
    // batch is complete for its new scope, b's holds only what changed.
    shares.set('user-a', new Set(['X1']));
    expect((await a.request(PushMsgId.HEARTBEAT, {})).code).toBe(ResultCode.OK);
    moved('A1');
    period();
    expect(a.batches().at(-1)).toEqual(['A1', 'A2', 'A3', 'X1']);
    expect(b.batches().at(-1)).toEqual(['A1']);
  });
});

describe('310 batches carry what a map shows', () => {
  it('telemetry that leaves a device\'s entry as it was keeps the device out of the next batch; a move or a status change brings it back', async () => {
    const c = await subscribed('user-still');
    const sent = () => c.batches().length;
    moved('A1', 'A2');
    period();
    expect(c.batches().at(-1)).toEqual(['A1', 'A2']);

    // A1 and A2 send telemetry again from where they stand (a nest on the ground): nothing to send.
    const at = (sn: string) => (live.get(sn)!.telemetry as { nest: { lat: number } }).nest.lat;
    telemetry('A1', at('A1'));
    telemetry('A2', at('A2'));
    const before = sent();
    period();
    expect(sent()).toBe(before);

    // Twice still, then A2 moves: only A2.
    telemetry('A1', at('A1'));
    telemetry('A1', at('A1'));
    moved('A2');
    period();
    expect(c.batches().at(-1)).toEqual(['A2']);

    // A2 moves and comes back before the batch: still sent (its entry had changed since the last batch).
    const was = at('A2');
    moved('A2');
    telemetry('A2', was);
    period();
    expect(c.batches().at(-1)).toEqual(['A2']);
    const last = c.sent.filter((f) => f.msg_id === PushMsgId.FLEET_UPDATE).at(-1)!;
    expect(fleetUpdatePush.parse(last.data).devices[0]!.lat).toBe(was);

    // The status board says A1 changed (a hold, a state): A1 is in the next batch although it did not move.
    status.emit('status', 'A1', { sn_id: 'A1', state: 1 });
    period();
    expect(c.batches().at(-1)).toEqual(['A1']);
    expect((await c.request(PushMsgId.FLEET_SUBSCRIBE, { on: false })).code).toBe(ResultCode.OK);
  });
});

describe('310 batches spread over the period', () => {
  it('the hub clock serves one phase per step: sockets in phases of their own get their batch each in its own step', async () => {
    const sockets: FakeSocket[] = [];
    // Two sockets of the test above are still subscribed: these fill the other phases.
    for (let i = 0; i < FLEET_PHASES - 2; i++) sockets.push(await subscribed(`phase-${i}`));
    const counts = () => sockets.map((s) => s.batches().length);
    const before = counts();
    moved('A1');
    // Which of the sockets got a batch at each step of one period.
    const servedAt: number[][] = [];
    let last = before;
    for (let step = 0; step < FLEET_PHASES; step++) {
      hub.fleetStep((clock += FLEET_UPDATE_PERIOD_MS / FLEET_PHASES));
      const now = counts();
      servedAt.push(now.flatMap((n, i) => (n > last[i]! ? [i] : [])));
      last = now;
    }
    // Each socket got one batch in the period, holding what changed, and no step served two of them.
    for (const [i, s] of sockets.entries()) expect(s.batches().slice(before[i])).toEqual([['A1']]);
    expect(servedAt.every((served) => served.length <= 1)).toBe(true);
    expect(servedAt.flat().sort()).toEqual(sockets.map((_, i) => i));
  });
});

describe('a socket\'s turn', () => {
  /** A socket's server side: a network socket that can be corked, and a WebSocket that records what it sends. */
  function corkable() {
    const sent: PushReply[] = [];
    const socket = { destroyed: false, corked: 0, cork: () => socket.corked++, uncork: () => socket.corked-- };
    const ws = { readyState: 1, bufferedAmount: 0, _socket: socket, send: (m: string | Buffer) => sent.push(JSON.parse(m.toString()) as PushReply) };
    return { sent, socket, client: new PushClient(ws as never) };
  }
  const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('writes a fleet batch after the live frames of the same turn, and everything in one uncork', async () => {
    const { sent, socket, client } = corkable();
    expect(client.sendBulkShared(new SharedFrame(ResultCode.OK, PushMsgId.FLEET_UPDATE, null, '{"devices":[]}'))).toBe(true);
    expect(client.sendLive(PushMsgId.DEVICE_TELEMETRY, { sn_id: 'A1' })).toBe(true);
    expect(sent.map((f) => f.msg_id)).toEqual([PushMsgId.DEVICE_TELEMETRY]);
    expect(socket.corked).toBe(1);
    await endOfTurn();
    expect(sent.map((f) => f.msg_id)).toEqual([PushMsgId.DEVICE_TELEMETRY, PushMsgId.FLEET_UPDATE]);
    expect(socket.corked).toBe(0);
  });

  it('forgets a waiting batch when fleet updates are turned off in the same turn', async () => {
    const { sent, client } = corkable();
    client.sendBulkShared(new SharedFrame(ResultCode.OK, PushMsgId.FLEET_UPDATE, null, '{"devices":[]}'));
    client.dropBulk();
    client.send(ResultCode.OK, PushMsgId.FLEET_SUBSCRIBE, { on: false });
    await endOfTurn();
    expect(sent.map((f) => f.msg_id)).toEqual([PushMsgId.FLEET_SUBSCRIBE]);
  });

  it('hands a shared frame to its first socket as text, to the others as the same bytes encoded once', () => {
    const frame = new SharedFrame(ResultCode.OK, PushMsgId.FLEET_UPDATE, null, '{"devices":[{"name":"巢"}]}');
    const first = frame.payload('en');
    const second = frame.payload('en');
    expect(typeof first).toBe('string');
    expect(Buffer.isBuffer(second) && second.toString('utf8')).toBe(first);
    expect(frame.payload('en')).toBe(second);
    // Another language is its own text.
    expect(typeof frame.payload('zh')).toBe('string');
  });

  it('wraps data given as bytes in the envelope of each language, the same bytes for every socket', () => {
    const frame = SharedFrame.fromBytes(ResultCode.OK, PushMsgId.FLEET_UPDATE, Buffer.from('{"devices":[{"name":"巢"}]}'));
    const en = frame.payload('en');
    expect(Buffer.isBuffer(en)).toBe(true);
    expect(frame.payload('en')).toBe(en);
    expect(JSON.parse(en.toString())).toEqual({ code: ResultCode.OK, msg: codeText(ResultCode.OK, 'en'), msg_id: PushMsgId.FLEET_UPDATE, data: { devices: [{ name: '巢' }] } });
    expect(JSON.parse(frame.of('zh'))).toMatchObject({ msg: codeText(ResultCode.OK, 'zh'), data: { devices: [{ name: '巢' }] } });
  });
});

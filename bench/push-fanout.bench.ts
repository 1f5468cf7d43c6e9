import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import {
  DEVICE_PUSH_FUNCTION,
  EQUIPMENT_VERIFY_SOR,
  EQUIPMENT_VERIFY_VST,
  PushMsgId,
  ResultCode,
  codeText,
  licencePlain,
  linkMessage,
  LinkMethod,
  md5Hex,
  signPmd,
  type TelemetryData,
} from '@nest/contracts';
import { afterAll, bench, describe } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { DeviceRow } from '../apps/server/src/db/schema.js';
import type { AppDeps } from '../apps/server/src/deps.js';
import { fleetEntryOf } from '../apps/server/src/devices/index.js';
import type { LiveDevice } from '../apps/server/src/link/adapter.js';
import { memberJson } from '../apps/server/src/link/member-json.js';
import { ClusterBus } from '../apps/server/src/push/bus.js';
import { FLEET_PHASES, PushHub, telemetryFrame, type PushPorts } from '../apps/server/src/push/hub.js';
import { DeviceModel } from '../apps/simulator/src/index.js';

/**
 * The push hub's live path over real WebSockets on loopback: the hub (apps/server/src/push) with the
 * device link, status board and directory replaced by in-memory doubles, so that only the hub's work is
 * measured. Baseline, in the same run: what a hub without sharing does, JSON.stringify of the same frame for
 * every socket and one ws.send each.
 *
 * - 300 DEVICE_TELEMETRY: one turn of 40 telemetry messages (simulator telemetry, about 700 bytes), each
 *   device watched by 1 socket, then by 10 sockets; the telemetry serialised, then the device's own JSON
 *   of it found in its link message (link/member-json.ts, the scan included) and spliced into the frame.
 * - 310 FLEET_UPDATE: one period of 2,000 devices that all moved, for 25 fleet-map sockets of one company,
 *   run as the hub's clock runs it (FLEET_PHASES steps, each building the batch of its phase's sockets).
 *
 * An iteration ends when every socket received every frame of it (the receiving sockets run in this
 * process and read only each frame's head, so both sides include that small cost), so a frame the hub
 * dropped would show as a hang, not a gain.
 */

const COMPANY = 'wk';
const LICENCE_IDS = 'bench';
const LICENCE_CODE = 'bench';
const FLEET_PERIOD_MS = 1000;

const telemetryOf = (i: number): TelemetryData =>
  new DeviceModel({ kind: 'stable', uavSn: `UAV-${i}`, home: { lat: 22.5 + i / 1e4, lng: 114 + i / 1e4 } } as never, i + 1).telemetry();

const rowOf = (sn: string, i: number): DeviceRow =>
  ({ sn_id: sn, company_id: COMPANY, azimuth: 0, airport_lat: 22.5 + i / 1e4, airport_lng: 114 + i / 1e4 }) as unknown as DeviceRow;

/** One hub over in-memory doubles, listening on loopback; answers its sockets as they connect. */
class Rig {
  readonly link = new EventEmitter();
  readonly live = new Map<string, LiveDevice>();
  /** Each device's telemetry as the link message it came in (the 300 frame may carry its data's text). */
  readonly messages = new Map<string, Buffer>();
  readonly rows = new Map<string, DeviceRow>();
  /** The server side of every socket, in connection order. */
  readonly serverSockets: WebSocket[] = [];
  readonly hub: PushHub;
  private readonly wss: WebSocketServer;
  private readonly listening: Promise<void>;
  private readonly clients: WebSocket[] = [];

  constructor(devices: string[]) {
    devices.forEach((sn, i) => {
      this.rows.set(sn, rowOf(sn, i));
      // The announced rate is so high that the 300 token bucket never holds a frame back here.
      const telemetry = telemetryOf(i);
      this.live.set(sn, { sn, online: true, rateHz: 1e9, firmware: null, heardAt: 0, telemetry, telemetryAt: 0, telemetryTs: 0, state: null, since: 0 });
      this.messages.set(sn, Buffer.from(JSON.stringify(linkMessage(LinkMethod.TELEMETRY, telemetry, { tid: `t-${i}`, ts: 1_763_769_600_000 + i }))));
    });
    const link = Object.assign(this.link, { device: (sn: string) => this.live.get(sn), owns: () => true, isOnline: () => true });
    const status = Object.assign(new EventEmitter(), { status: () => 1, snapshot: (sn: string) => ({ sn_id: sn, state: 1 }) });
    const directory = {
      generation: 0,
      get: (sn: string) => this.rows.get(sn),
      visible: () => [...this.rows.values()],
      onChange: () => () => undefined,
    };
    const deps = {
      live: { link, status, directory, bus: new ClusterBus(), video: { watch: () => undefined, unwatch: () => undefined } },
      changes: new EventEmitter(),
    } as unknown as AppDeps;
    const ports: PushPorts = {
      sessions: {
        tokenHash: (token) => token,
        find: (token) =>
          Promise.resolve({ sessionId: `s-${token}`, token, user: { u_id: `u-${token}`, company_id: COMPANY, nick: token }, funList: [DEVICE_PUSH_FUNCTION] } as never),
        access: () => Promise.resolve({ funList: [DEVICE_PUSH_FUNCTION], liveUntil: Math.floor(Date.now() / 1000) + 86_400 }),
        shared: () => Promise.resolve(new Set<string>()),
        forgetShares: () => undefined,
      },
      openLicence: (sealed) => sealed,
      fleetEntry: fleetEntryOf,
    };
    const quiet = () => undefined;
    this.hub = new PushHub(deps, ports, { debug: quiet, info: quiet, warn: quiet, error: quiet } as never);
    this.wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    this.listening = new Promise((resolve) => this.wss.once('listening', resolve));
    this.wss.on('connection', (ws) => {
      this.serverSockets.push(ws);
      this.hub.attach(ws);
    });
  }

  /** A verified socket (100) watching `watch` (200) and, with `fleet`, subscribed to fleet batches (210). */
  async socket(token: string, watch: string[], fleet: boolean, onFrame: (msgId: number) => void): Promise<void> {
    await this.listening;
    const { port } = this.wss.address() as AddressInfo;
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    this.clients.push(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const replies = new Map<number, () => void>();
    ws.on('message', (data: Buffer) => {
      // Only the head is read (the envelope's code and msg_id come first), so that the receiving side costs
      // little beside the hub: a 310 batch is 200 KB.
      const head = /^\{"code":(\d+),"msg":"[^"]*","msg_id":(\d+)/.exec(data.subarray(0, 96).toString('utf8'));
      const code = Number(head?.[1]);
      const msgId = Number(head?.[2]);
      if (msgId === PushMsgId.DEVICE_TELEMETRY || (msgId === PushMsgId.FLEET_UPDATE && code === ResultCode.OK)) onFrame(msgId);
      else replies.get(msgId)?.();
    });
    const request = (msgId: number, data: object) =>
      new Promise<void>((resolve) => {
        replies.set(msgId, resolve as () => void);
        ws.send(JSON.stringify({ msg_id: msgId, tms: Date.now(), version: 0, data }));
      });
    const licence = md5Hex(licencePlain(token, LICENCE_IDS, LICENCE_CODE));
    await request(PushMsgId.USER_VERIFY, { token, app_ids: LICENCE_IDS, app_code: LICENCE_CODE, licence, os_language: 'en' });
    for (const sn of watch) {
      const pmd = signPmd({ token, pmdValue: sn });
      await request(PushMsgId.EQUIPMENT_VERIFY, { token, sn_id: sn, pmd, vst: EQUIPMENT_VERIFY_VST, sor: EQUIPMENT_VERIFY_SOR, os_language: 'en' });
    }
    if (fleet) await request(PushMsgId.FLEET_SUBSCRIBE, { on: true });
  }

  async close(): Promise<void> {
    for (const ws of this.clients) ws.terminate();
    this.hub.close();
    await new Promise((resolve) => this.wss.close(resolve));
  }
}

/** Counts frames as they arrive; `until(n)` resolves once n more arrived than when it was called. */
class Arrivals {
  private count = 0;
  private target = Infinity;
  private done: (() => void) | null = null;

  readonly note = (): void => {
    if (++this.count >= this.target) this.done?.();
  };

  until(n: number): Promise<void> {
    this.target = this.count + n;
    return new Promise((resolve) => {
      this.done = resolve;
    });
  }
}

const reply = (msgId: number, data: unknown): string => JSON.stringify({ code: ResultCode.OK, msg: codeText(ResultCode.OK, 'en'), msg_id: msgId, data });

/** 40 devices, each watched by `perDevice` sockets: 40 / perDevice... sockets watching all devices of their share. */
async function telemetryRig(perDevice: number): Promise<{ rig: Rig; devices: string[]; watchers: Map<string, WebSocket[]>; arrivals: Arrivals }> {
  const devices = Array.from({ length: 40 }, (_, i) => `T${perDevice}-${i}`);
  const rig = new Rig(devices);
  const arrivals = new Arrivals();
  const watchers = new Map<string, WebSocket[]>(devices.map((sn) => [sn, []]));
  // perDevice 1: one socket per device; 10: ten sockets each watching all 40 (41 frames in, under the flood limit).
  const plans = perDevice === 1 ? devices.map((sn) => [sn]) : Array.from({ length: perDevice }, () => devices);
  for (const [i, watch] of plans.entries()) {
    await rig.socket(`t${perDevice}-${i}`, watch, false, arrivals.note);
    const ws = rig.serverSockets[i]!;
    for (const sn of watch) watchers.get(sn)!.push(ws);
  }
  return { rig, devices, watchers, arrivals };
}

const rigs: Rig[] = [];
afterAll(async () => {
  for (const rig of rigs) await rig.close();
});

for (const perDevice of [1, 10]) {
  const t = await telemetryRig(perDevice);
  rigs.push(t.rig);
  const frames = t.devices.length * perDevice;
  describe(`300 telemetry: 40 messages in one turn, ${perDevice} watching socket(s) per device`, () => {
    bench('baseline: JSON.stringify + ws.send per socket', async () => {
      const arrived = t.arrivals.until(frames);
      for (const sn of t.devices) {
        const live = t.rig.live.get(sn)!;
        for (const ws of t.watchers.get(sn)!) {
          ws.send(reply(PushMsgId.DEVICE_TELEMETRY, { sn_id: sn, state: 1, telemetry: live.telemetry, at: Date.now() }));
        }
      }
      await arrived;
    });
    bench('push hub (link telemetry event -> 300 frames, telemetry serialised)', async () => {
      const arrived = t.arrivals.until(frames);
      for (const sn of t.devices) {
        const live = t.rig.live.get(sn)!;
        live.telemetryAt = Date.now();
        t.rig.link.emit('telemetry', sn, live);
      }
      await arrived;
    });
    bench("push hub (link telemetry event -> 300 frames around the device's own JSON, found in its message)", async () => {
      const arrived = t.arrivals.until(frames);
      for (const sn of t.devices) {
        const live = t.rig.live.get(sn)!;
        live.telemetryAt = Date.now();
        const message = t.rig.messages.get(sn)!;
        t.rig.link.emit('telemetry', sn, live, () => memberJson(message, 'data', live.telemetry));
      }
      await arrived;
    });
  });
}

{
  // The frame alone, no socket: what the hub does per 300 message before ws writes it.
  const rig = new Rig(['ONE']);
  rigs.push(rig);
  const live = rig.live.get('ONE')!;
  const message = rig.messages.get('ONE')!;
  describe(`300 frame of one telemetry message (${message.byteLength} bytes), built for a socket`, () => {
    bench('telemetry serialised (JSON.stringify), then its UTF-8 length as ws needs it', () => {
      const frame = telemetryFrame({ sn_id: 'ONE', state: 1, telemetry: live.telemetry, at: Date.now() }, null).payload('en');
      Buffer.byteLength(frame);
    });
    bench("the device's own JSON found in its message and spliced (bytes)", () => {
      telemetryFrame({ sn_id: 'ONE', state: 1, telemetry: live.telemetry, at: Date.now() }, memberJson(message, 'data', live.telemetry)).payload('en');
    });
  });
}

const FLEET_DEVICES = 2000;
const FLEET_SOCKETS = 25;
const fleetDevices = Array.from({ length: FLEET_DEVICES }, (_, i) => `F-${i}`);
const fleetRig = new Rig(fleetDevices);
rigs.push(fleetRig);
const fleetArrivals = new Arrivals();
for (let i = 0; i < FLEET_SOCKETS; i++) await fleetRig.socket(`f-${i}`, [], true, fleetArrivals.note);
// The hub's clock for fleet periods, ahead of the wall clock: its own timer finds every socket served.
let fleetNow = Date.now() + 3_600_000;

describe(`310 fleet: one period, ${FLEET_DEVICES} devices that all moved, ${FLEET_SOCKETS} fleet sockets of one company`, () => {
  bench('baseline: every socket builds, JSON.stringify + ws.send its own batch', async () => {
    const arrived = fleetArrivals.until(FLEET_SOCKETS);
    for (const ws of fleetRig.serverSockets) {
      const devices = [...fleetRig.rows.values()].map((row) => fleetEntryOf(row, fleetRig.live.get(row.sn_id), 1)).filter((e) => e !== null);
      ws.send(reply(PushMsgId.FLEET_UPDATE, { devices }));
    }
    await arrived;
  });
  bench('push hub (2,000 telemetry events, then one fleet period in its phases)', async () => {
    const arrived = fleetArrivals.until(FLEET_SOCKETS);
    for (const sn of fleetDevices) fleetRig.link.emit('telemetry', sn, fleetRig.live.get(sn));
    // The period as the hub's clock runs it: one step per phase, each phase's sockets with their own batch.
    for (let step = 0; step < FLEET_PHASES; step++) fleetRig.hub.fleetStep((fleetNow += FLEET_PERIOD_MS / FLEET_PHASES));
    await arrived;
  });
});

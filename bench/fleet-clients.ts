/**
 * The clients child of the fleet benches: the browser WebSocket clients (fleet-lib SocketPlan) and a
 * tracker MQTT subscriber that sees what the devices send, so that frames (which do not carry the device
 * `ts`) can be dated end to end and QoS-1 events can be matched with their events_reply.
 *
 * Latency: device `ts` (sender clock, same machine) -> client receive. Relay frames carry the envelope's
 * ts. A 300 frame is matched to the device message with the same telemetry fingerprint (positions,
 * heading, battery, wind, temperature); a 310 entry's age is receive time minus the ts of the newest device
 * message whose marker fields equal the entry's (how old the information on the map is).
 *
 * Large fleets date a sample (`datedSns`): the tracker subscribes to those devices' telemetry only, and
 * frames and 310 entries of the other devices are counted without being parsed, so that this process keeps
 * up with 10,000 device messages a second.
 *
 * Soak extras (fleet-soak.ts), running from `open` to `quiesce`; only what is sent (first seen, for
 * events) between `measure` and `quiesce` is counted: heartbeats (101), 401 gimbal commands (reply
 * matched by cmd_id), pilots (401 takeoff / land), events (tracker: unique tid on `events` -> same tid
 * on `events_reply`, from the event's own ts), and the last retained `state` of every device that sent one
 * in the window (the soak compares it with what the server holds).
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  CmdType,
  FlightMethod,
  GimbalAction,
  PushMsgId,
  SERVER_CLIENT_ID_PREFIX,
  SERVER_MQTT_USER,
  channelFilter,
  topicOf,
  type FleetEntry,
  type PushReply,
  type TelemetryData,
} from '@nest/contracts';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { childMain, cpuPercent, sleep, snap, type SocketPlan } from './fleet-lib.js';
import { Histogram, msgIdOf, occurrences, snOf, type HistogramData } from './stats.js';

export interface Tracker {
  url: string;
  password: string;
}
export type ToClients =
  | {
      type: 'open';
      url: string;
      plans: SocketPlan[];
      tracker: Tracker;
      heartbeatMs?: number;
      /** Track events and their replies, and the devices' state messages (the soak). */
      trackEvents?: boolean;
      /** Devices whose frames are dated (default: all). */
      datedSns?: string[];
    }
  | { type: 'measure' }
  | { type: 'quiesce'; waitMs: number }
  | { type: 'pending' }
  | { type: 'report' }
  | { type: 'close' };

/** Commands of one kind: counted sends and how they were answered. */
export interface CommandStats {
  sent: number;
  ok: number;
  /** Answered other than 2000 / ok, by `code outcome reason`. */
  notOk: Record<string, number>;
  unanswered: number;
  rtt: HistogramData;
  /** cmd_ids answered ok (checked against command_log). */
  okIds: string[];
  /** The device of every command not answered ok (the soak excuses those to devices that were silent). */
  notOkSns: string[];
}

export interface EventStats {
  /** Unique event tids first seen in the window. */
  sent: number;
  acked: number;
  /** Publications of those events (re-sends included). */
  publishes: number;
  byMethod: Record<string, number>;
  ack: HistogramData;
  unackedSample: string[];
  /** flight_id of flight.start / flight.end events in the window (checked against sorties). */
  flightStarts: string[];
  flightEnds: string[];
}

export interface StateStats {
  /** State messages seen in the window. */
  sent: number;
  /** The last state `data` of every device that sent one in the window (also if that last one came after it). */
  last: Record<string, unknown>;
}

export interface ClientStats {
  seconds: number;
  frames300: number;
  frames310: number;
  entries310: number;
  relayFrames: number;
  otherFrames: Record<string, number>;
  bytes: number;
  lat300: HistogramData;
  age310: HistogramData;
  latRelay: HistogramData;
  /**
   * Device ts -> the tracker's receipt of the same telemetry message: the broker's own delivery to an MQTT
   * subscriber in this process, without the server's link and push hub on its path (the baseline of the
   * 300 latency; an embedded broker still shares the server's process and event loop).
   */
  latTracker: HistogramData;
  unmatched: number;
  closed: number;
  cpuPercent: number;
  /**
   * This process's own event-loop delay over the window, ms p99 and max: a frame or a tracked message
   * waiting here is dated late although the server sent it in time, so a late clients process shows here.
   */
  loop: { p99: number; max: number };
  heartbeats: { sent: number; ok: number; failed: number };
  gimbal: CommandStats;
  pilot: CommandStats;
  events: EventStats;
  states: StateStats;
}

const AIRBORNE = new Set([1, 2, 3, 8]);
/** The 310 marker fields a telemetry message would produce (server devices/view.ts positionOf / fleetEntryOf). */
function markerKey(t: TelemetryData): string {
  const d = t.drone;
  const pos = d && AIRBORNE.has(d.flight_state) ? d : (t.nest ?? d);
  return `${pos?.lat},${pos?.lng},${d ? d.heading : '-'},${d?.battery.percent ?? null},${d?.height ?? null}`;
}
const entryKey = (e: FleetEntry): string => `${e.lat},${e.lng},${e.flight_state === null ? '-' : e.heading},${e.battery},${e.height}`;
/** Fingerprint of one telemetry message (fields that move or jitter every period). */
const telemetryKey = (t: TelemetryData): string =>
  `${markerKey(t)}|${t.nest?.env.wind_speed},${t.nest?.env.wind_direction},${t.nest?.env.temperature}|${t.drone?.battery.voltage},${t.drone?.battery.temperature},${t.drone?.lat},${t.drone?.lng}`;

interface Seen {
  key: string;
  marker: string;
  ts: number;
}
/** Device messages remembered per device (at 10 Hz: 6 s, more than the dating delay). */
const RING = 64;
/**
 * Frames are dated this long after receipt, once the tracker has surely seen their device message (the
 * tracker reads in this same process, which a competing process or a 10,000-device fleet can delay).
 */
const DATING_DELAY_MS = 3000;

interface Received {
  sn: string;
  key: string;
  recv: number;
  /** A 310 entry (else a 300 frame). */
  entry: boolean;
}

interface Outstanding {
  kind: 'gimbal' | 'pilot';
  sn: string;
  sentAt: number;
  counted: boolean;
}

interface TrackedEvent {
  ts: number;
  counted: boolean;
  acked: boolean;
  method: string;
}

/** How much of a frame is read to tell its kind and device. */
const HEAD_BYTES = 400;
const SN_KEY = Buffer.from('"sn_id":');

const emptyCommands = (): CommandStats => ({ sent: 0, ok: 0, notOk: {}, unanswered: 0, rtt: new Histogram().toData(), okIds: [], notOkSns: [] });

export function clientsRole(): void {
  let sockets: WebSocket[] = [];
  let tracker: mqtt.MqttClient | null = null;
  const seen = new Map<string, Seen[]>();
  let measuring = false;
  /** Commands and events started now are counted. */
  let counting = false;
  let sending = false;
  let stats = emptyStats();
  let hist = emptyHists();
  let cpu0 = snap();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  /** End of the frames' window (set by `quiesce`; else the report ends it). */
  let cpu1: ReturnType<typeof snap> | null = null;
  let pending: Received[] = [];
  let dating: NodeJS.Timeout | null = null;
  const timers: NodeJS.Timeout[] = [];
  const outstanding = new Map<string, Outstanding>();
  const events = new Map<string, TrackedEvent>();
  /** Last state data per device, and whether one came in the window. */
  const states = new Map<string, { data: unknown; counted: boolean }>();
  /** Devices whose frames are dated; null: all. */
  let dated: Set<string> | null = null;
  /** When the tracker last received a message. */
  let lastTracked = 0;
  let seq = 0;

  function emptyHists() {
    return { lat300: new Histogram(), age310: new Histogram(), latRelay: new Histogram(), latTracker: new Histogram(), gimbal: new Histogram(), pilot: new Histogram(), ack: new Histogram() };
  }
  function emptyStats(): ClientStats {
    return {
      seconds: 0,
      frames300: 0,
      frames310: 0,
      entries310: 0,
      relayFrames: 0,
      otherFrames: {},
      bytes: 0,
      lat300: new Histogram().toData(),
      age310: new Histogram().toData(),
      latRelay: new Histogram().toData(),
      latTracker: new Histogram().toData(),
      unmatched: 0,
      closed: 0,
      cpuPercent: 0,
      loop: { p99: 0, max: 0 },
      heartbeats: { sent: 0, ok: 0, failed: 0 },
      gimbal: emptyCommands(),
      pilot: emptyCommands(),
      events: { sent: 0, acked: 0, publishes: 0, byMethod: {}, ack: new Histogram().toData(), unackedSample: [], flightStarts: [], flightEnds: [] },
      states: { sent: 0, last: {} },
    };
  }

  /**
   * Dates received frames: the newest device message with the same content sent before receipt (the
   * tracker may see a message after the server has already pushed it, hence the delay).
   */
  function date(all: boolean): void {
    const cut = Date.now() - DATING_DELAY_MS;
    const keep: Received[] = [];
    for (const r of pending) {
      if (!all && r.recv > cut) {
        keep.push(r);
        continue;
      }
      const hit = (seen.get(r.sn) ?? []).findLast((s) => (r.entry ? s.marker : s.key) === r.key && s.ts <= r.recv);
      if (!hit) {
        stats.unmatched++;
        if (process.env.FLEET_BENCH_DEBUG) console.error('not dated', r, seen.get(r.sn)?.slice(-3));
      } else (r.entry ? hist.age310 : hist.lat300).record(r.recv - hit.ts);
    }
    pending = keep;
  }

  function onTracked(topic: string, payload: Buffer): void {
    const now = Date.now();
    lastTracked = now;
    const [, , sn = '', channel] = topic.split('/');
    try {
      const env = JSON.parse(payload.toString()) as { ts: number; tid: string; method: string; data: unknown };
      if (channel === 'telemetry') {
        const data = env.data as TelemetryData;
        const ring = seen.get(sn) ?? [];
        ring.push({ key: telemetryKey(data), marker: markerKey(data), ts: env.ts });
        if (ring.length > RING) ring.shift();
        seen.set(sn, ring);
        if (measuring) hist.latTracker.record(now - env.ts);
      } else if (channel === 'events') onEvent(env);
      else if (channel === 'events_reply') onEventReply(env.tid);
      else if (channel === 'state') {
        const counted = counting || (states.get(sn)?.counted ?? false);
        if (counting) stats.states.sent++;
        states.set(sn, { data: env.data, counted });
      }
    } catch {
      /* not ours to judge */
    }
  }

  function onEvent(env: { ts: number; tid: string; method: string; data: unknown }): void {
    const known = events.get(env.tid);
    if (known) {
      if (known.counted) stats.events.publishes++;
      return;
    }
    events.set(env.tid, { ts: env.ts, counted: counting, acked: false, method: env.method });
    if (!counting) return;
    const e = stats.events;
    e.sent++;
    e.publishes++;
    e.byMethod[env.method] = (e.byMethod[env.method] ?? 0) + 1;
    const flightId = (env.data as { flight_id?: unknown } | null)?.flight_id;
    if (typeof flightId === 'string') {
      if (env.method === FlightMethod.FLIGHT_START) e.flightStarts.push(flightId);
      if (env.method === FlightMethod.FLIGHT_END) e.flightEnds.push(flightId);
    }
  }

  function onEventReply(tid: string): void {
    const e = events.get(tid);
    if (!e || e.acked) return;
    e.acked = true;
    if (!e.counted) {
      events.delete(tid);
      return;
    }
    stats.events.acked++;
    hist.ack.record(Date.now() - e.ts);
  }

  function commandAnswered(f: PushReply): void {
    const d = f.data as { cmd_id?: string; outcome?: string; reason?: number } | null;
    const id = d?.cmd_id;
    const o = id ? outstanding.get(id) : undefined;
    if (!id || !o) return;
    outstanding.delete(id);
    if (!o.counted) return;
    const s = o.kind === 'gimbal' ? stats.gimbal : stats.pilot;
    (o.kind === 'gimbal' ? hist.gimbal : hist.pilot).record(Date.now() - o.sentAt);
    if (f.code === 2000 && d?.outcome === 'ok') {
      s.ok++;
      s.okIds.push(id);
    } else {
      const k = `${f.code} ${d?.outcome ?? '-'} ${d?.reason ?? '-'}`;
      s.notOk[k] = (s.notOk[k] ?? 0) + 1;
      s.notOkSns.push(o.sn);
    }
  }

  /** The soak's steady traffic of one socket: heartbeats, gimbal commands, pilot cycles. */
  function drive(ws: WebSocket, index: number, plan: SocketPlan, heartbeatMs: number | undefined, heartbeats: boolean[]): void {
    const send = (msgId: number, data: Record<string, unknown>) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ msg_id: msgId, tms: Date.now(), version: 0, data }));
    };
    const command = (kind: Outstanding['kind'], data: Record<string, unknown>) => {
      const cmdId = `soak-${index}-${++seq}`;
      outstanding.set(cmdId, { kind, sn: String(data.sn_id), sentAt: Date.now(), counted: counting });
      if (counting) (kind === 'gimbal' ? stats.gimbal : stats.pilot).sent++;
      send(PushMsgId.CONTROL, { ...data, cmd_id: cmdId });
    };
    // Spread the sockets' timers over their periods, so that the load is steady.
    const every = (periodMs: number, phase: number, fn: () => void) => {
      timers.push(
        setTimeout(() => {
          if (!sending) return;
          fn();
          timers.push(
            setInterval(() => {
              if (sending) fn();
            }, periodMs),
          );
        }, phase * periodMs),
      );
    };
    const phase = ((index * 0.618) % 1) as number;
    if (heartbeatMs) {
      every(heartbeatMs, phase, () => {
        if (counting) stats.heartbeats.sent++;
        heartbeats.push(counting);
        send(PushMsgId.HEARTBEAT, {});
      });
    }
    if (plan.commands && plan.commands.sns.length > 0) {
      const { sns, periodMs } = plan.commands;
      let n = 0;
      every(periodMs, phase, () => {
        const sn = sns[n % sns.length]!;
        const up = Math.floor(n / sns.length) % 2 === 0;
        n++;
        command('gimbal', up ? { sn_id: sn, cmd_type: CmdType.GIMBAL, action_cmd: GimbalAction.PITCH, value: -30 } : { sn_id: sn, cmd_type: CmdType.GIMBAL, action_cmd: GimbalAction.RESET });
      });
    }
    for (const [i, sn] of (plan.pilot?.sns ?? []).entries()) {
      const cycleMs = plan.pilot!.cycleMs;
      const p = (phase + i / plan.pilot!.sns.length) % 1;
      every(cycleMs, p, () => {
        command('pilot', { sn_id: sn, cmd_type: CmdType.TAKEOFF, value: 0 });
        timers.push(
          setTimeout(() => {
            if (sending) command('pilot', { sn_id: sn, cmd_type: CmdType.LAND });
          }, cycleMs / 2),
        );
      });
    }
  }

  function open(url: string, index: number, plan: SocketPlan, heartbeatMs: number | undefined): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      // The server's frames are valid UTF-8 (JSON.stringify); checking each of them would cost this process.
      const ws = new WebSocket(url, { skipUTF8Validation: true });
      const replies: { msgId: number; resolve: (r: PushReply) => void }[] = [];
      const request = (msgId: number, data: Record<string, unknown>): Promise<PushReply> =>
        new Promise((res) => {
          replies.push({ msgId, resolve: res });
          ws.send(JSON.stringify({ msg_id: msgId, tms: Date.now(), version: 0, data }));
        });
      const date310 = plan.date310 !== false;
      /** Heartbeats sent and not answered yet, in order: counted or not. */
      const heartbeats: boolean[] = [];
      ws.on('message', (raw: Buffer) => {
        const now = Date.now();
        if (plan.kind === 'relay') {
          if (!measuring) return;
          stats.relayFrames++;
          stats.bytes += raw.length;
          const ts = /"ts":(\d+)/.exec(raw.toString())?.[1];
          if (ts) hist.latRelay.record(now - Number(ts));
          return;
        }
        // The head says what the frame is; the bulk (310 batches, 300 frames of devices not dated) is
        // counted without decoding or parsing the rest.
        const head = raw.toString('latin1', 0, Math.min(raw.length, HEAD_BYTES));
        const msgId = msgIdOf(head);
        if (!date310 && msgId === PushMsgId.FLEET_UPDATE) {
          if (!measuring) return;
          stats.bytes += raw.length;
          stats.frames310++;
          stats.entries310 += occurrences(raw, SN_KEY);
          return;
        }
        if (dated && msgId === PushMsgId.DEVICE_TELEMETRY) {
          const sn = snOf(head);
          if (sn !== null && !dated.has(sn)) {
            if (!measuring) return;
            stats.bytes += raw.length;
            stats.frames300++;
            return;
          }
        }
        const text = raw.toString();
        const f = JSON.parse(text) as PushReply;
        if (f.msg_id === PushMsgId.CONTROL) return commandAnswered(f);
        if (f.msg_id === PushMsgId.HEARTBEAT && heartbeats.length > 0) {
          // Answered in order: the first replies after `measure` may be for heartbeats sent before it, the
          // last ones come after `quiesce`.
          if (heartbeats.shift()) stats.heartbeats[f.code === 2000 ? 'ok' : 'failed']++;
          return;
        }
        const w = replies.findIndex((r) => r.msgId === f.msg_id);
        if (w >= 0) return replies.splice(w, 1)[0]!.resolve(f);
        if (!measuring) return;
        stats.bytes += raw.length;
        if (f.msg_id === PushMsgId.DEVICE_TELEMETRY) {
          stats.frames300++;
          const d = f.data as { sn_id: string; telemetry: TelemetryData };
          pending.push({ sn: d.sn_id, key: telemetryKey(d.telemetry), recv: now, entry: false });
        } else if (f.msg_id === PushMsgId.FLEET_UPDATE) {
          stats.frames310++;
          for (const e of (f.data as { devices: FleetEntry[] }).devices) {
            stats.entries310++;
            if (!dated || dated.has(e.sn_id)) pending.push({ sn: e.sn_id, key: entryKey(e), recv: now, entry: true });
          }
        } else stats.otherFrames[f.msg_id] = (stats.otherFrames[f.msg_id] ?? 0) + 1;
      });
      ws.on('close', () => {
        if (measuring) stats.closed++;
      });
      ws.once('error', reject);
      ws.once('open', () => {
        void (async () => {
          if (plan.verifyUser) {
            const r = await request(PushMsgId.USER_VERIFY, plan.verifyUser);
            if (r.code !== 2000) throw new Error(`100 failed: ${JSON.stringify(r)}`);
          }
          if (plan.kind === 'fleet') {
            const r = await request(PushMsgId.FLEET_SUBSCRIBE, { on: true });
            if (r.code !== 2000) throw new Error(`210 failed: ${JSON.stringify(r)}`);
          }
          for (const [i, v] of (plan.verifyDevices ?? []).entries()) {
            const r = await request(PushMsgId.EQUIPMENT_VERIFY, v);
            if (r.code !== 2000) throw new Error(`200 failed: ${JSON.stringify(r)}`);
            // Stay under the push hub's flood limit (50 frames a second per socket).
            if (i % 20 === 19) await sleep(1000);
          }
          drive(ws, index, plan, heartbeatMs, heartbeats);
          resolve(ws);
        })().catch(reject);
      });
    });
  }

  childMain<ToClients>('clients', async (m, reply) => {
    if (m.type === 'open') {
      seen.clear();
      events.clear();
      states.clear();
      outstanding.clear();
      dated = m.datedSns ? new Set(m.datedSns) : null;
      tracker = await mqtt.connectAsync(m.tracker.url, {
        clientId: `${SERVER_CLIENT_ID_PREFIX}bench-tracker-${randomBytes(3).toString('hex')}`,
        username: SERVER_MQTT_USER,
        password: m.tracker.password,
        protocolVersion: 4,
        reconnectPeriod: 0,
      });
      tracker.on('message', onTracked);
      if (!dated) await tracker.subscribeAsync(channelFilter('telemetry'), { qos: 0 });
      else {
        const topics = [...dated].map((sn) => topicOf(sn, 'telemetry'));
        for (let i = 0; i < topics.length; i += 500) await tracker.subscribeAsync(topics.slice(i, i + 500), { qos: 0 });
      }
      if (m.trackEvents) await tracker.subscribeAsync([channelFilter('events'), channelFilter('events_reply'), channelFilter('state')], { qos: 1 });
      sending = true;
      sockets = await Promise.all(m.plans.map((p, i) => open(m.url, i, p, m.heartbeatMs)));
      reply({ type: 'opened', sockets: sockets.length });
    } else if (m.type === 'measure') {
      stats = emptyStats();
      hist = emptyHists();
      pending = [];
      cpu0 = snap();
      cpu1 = null;
      loop.reset();
      loop.enable();
      measuring = true;
      counting = true;
      dating = setInterval(() => date(false), 500);
      reply({ type: 'measuring' });
    } else if (m.type === 'quiesce') {
      // Stop sending and counting new work and frames; wait for what is still unanswered.
      cpu1 = snap();
      loop.disable();
      measuring = false;
      counting = false;
      sending = false;
      for (const t of timers.splice(0)) clearTimeout(t);
      const deadline = Date.now() + m.waitMs;
      while ([...outstanding.values()].some((o) => o.counted) && Date.now() < deadline) await sleep(100);
      reply({ type: 'quiet' });
    } else if (m.type === 'pending') {
      // What the drain waits for: counted events not acknowledged yet, counted commands not answered yet.
      let unacked = 0;
      for (const e of events.values()) if (e.counted && !e.acked) unacked++;
      let unanswered = 0;
      for (const o of outstanding.values()) if (o.counted) unanswered++;
      reply({ type: 'pending', events: unacked, commands: unanswered });
    } else if (m.type === 'report') {
      measuring = false;
      counting = false;
      const now = cpu1 ?? snap();
      if (dating) clearInterval(dating);
      // The fleet has stopped (soak): what the tracker still has to read is read first (its last states).
      for (const until = Date.now() + 30_000; Date.now() - lastTracked < 1000 && Date.now() < until; ) await sleep(200);
      await sleep(DATING_DELAY_MS);
      date(true);
      stats.seconds = (now.at - cpu0.at) / 1000;
      stats.cpuPercent = cpuPercent(cpu0, now);
      loop.disable();
      stats.loop = { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
      for (const o of outstanding.values()) if (o.counted) (o.kind === 'gimbal' ? stats.gimbal : stats.pilot).unanswered++;
      for (const [tid, e] of events) {
        if (!e.counted || e.acked) continue;
        if (stats.events.unackedSample.length < 10) stats.events.unackedSample.push(`${e.method} ${tid}`);
      }
      stats.lat300 = hist.lat300.toData();
      stats.age310 = hist.age310.toData();
      stats.latRelay = hist.latRelay.toData();
      stats.latTracker = hist.latTracker.toData();
      stats.gimbal.rtt = hist.gimbal.toData();
      stats.pilot.rtt = hist.pilot.toData();
      stats.events.ack = hist.ack.toData();
      for (const [sn, st] of states) if (st.counted) stats.states.last[sn] = st.data;
      reply({ type: 'report', stats });
    } else if (m.type === 'close') {
      sending = false;
      for (const t of timers.splice(0)) clearTimeout(t);
      for (const s of sockets) s.terminate();
      sockets = [];
      await tracker?.endAsync(true);
      tracker = null;
      reply({ type: 'closed' });
    }
  });
}

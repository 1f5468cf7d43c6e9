import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  FlightMethod,
  PushMsgId,
  alternateLandingEvent,
  flightEndEvent,
  flightStartEvent,
  type LinkEnvelope,
  type PlannedPoint,
  type SortiePush,
} from '@nest/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { findDeviceBySn } from '../devices/api.js';
import type { LiveDevice } from '../link/adapter.js';
import type { BusNotices } from '../push/bus.js';
import type { PushHub } from '../push/hub.js';
import { STATE_NORMAL, attachEarlyResults, syncSortieCount } from './store.js';
import { keepPoint, pointOf, type TrackPoint } from './track.js';
import { haversineDistance } from '@nest/geo';

export interface RecorderOptions {
  /** How often buffered track points are written (one insert per flush). */
  flushMs: number;
  /** An open sortie without telemetry or events for this long is closed (restart leftovers, lost flight.end). */
  idleMs: number;
  sweepMs: number;
}
export const DEFAULT_RECORDER_OPTIONS: RecorderOptions = { flushMs: 3000, idleMs: 15 * 60_000, sweepMs: 60_000 };
/** Rows per insert statement: 10 columns each stays far below SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 500;
/**
 * Open sorties whose distance one statement writes (an UPDATE with a CASE); the event loop runs between
 * statements. One UPDATE per sortie kept the loop busy for 0.1-0.2 s every flush with a few hundred drones
 * flying on SQLite, whose driver answers synchronously.
 */
const DISTANCE_CHUNK = 100;

interface OpenSortie {
  sortId: string;
  flightId: string;
  missionName: string;
  last: TrackPoint | null;
  /** Metres along the kept points: shown while the sortie is open, kept when it closes without a flight.end. */
  distance: number;
  /** The distance last written to the sortie row (lists show an open sortie's distance as it grows). */
  written?: number;
  heardAt: number;
}
type Row = TrackPoint & { sort_id: string };

/** A device clock further than this from ours is not trusted for track times. */
export const DEVICE_CLOCK_TOLERANCE_MS = 5 * 60_000;

/**
 * The time of a track point: the device's own stamp when its clock is sane, so that every server
 * instance records the same message under the same time (the (sort_id, t) key makes the second write a
 * no-op); else the time it was received.
 */
export function trackTime(d: Pick<LiveDevice, 'telemetryAt' | 'telemetryTs'>, now = Date.now()): number {
  const received = d.telemetryAt ?? now;
  const sent = d.telemetryTs;
  return sent !== null && Math.abs(sent - received) <= DEVICE_CLOCK_TOLERANCE_MS ? sent : received;
}

/** Device times may come in s or ms: anything past year 5138 in seconds is taken for ms. */
export const toSeconds = (t: number): number => (t > 1e11 ? Math.floor(t / 1000) : Math.floor(t));

/**
 * The planned route of a sortie: the waypoints of its route as the flight was launched with them (the
 * route row read when the flight starts, from the `start_index` the launch command logged, so a resumed
 * flight shows what it was sent to fly). Unreadable waypoints give [].
 */
export function plannedRoute(waypointsJson: string, commandParams: string | undefined): PlannedPoint[] {
  let start = 0;
  try {
    const p = JSON.parse(commandParams ?? '{}') as { start_index?: unknown };
    if (typeof p.start_index === 'number' && Number.isInteger(p.start_index) && p.start_index > 0) start = p.start_index;
  } catch {
    // no command (a patrol the device started itself): the whole route
  }
  try {
    const wps = JSON.parse(waypointsJson) as unknown;
    if (!Array.isArray(wps)) return [];
    const points: PlannedPoint[] = [];
    for (const w of wps.slice(start) as { lat?: unknown; lng?: unknown; height?: unknown }[]) {
      if (typeof w?.lat !== 'number' || typeof w.lng !== 'number' || typeof w.height !== 'number') return [];
      points.push({ lat: w.lat, lng: w.lng, height: w.height });
    }
    return points;
  } catch {
    return [];
  }
}

/**
 * Turns device flight events and telemetry into sorties, their tracks and alternate-landing records.
 * Events of one device are handled in order (a chain per sn) so a quick start/end pair cannot cross.
 */
export class SortieRecorder {
  private readonly open = new Map<string, OpenSortie>();
  private buffer: Row[] = [];
  private readonly chains = new Map<string, Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly hub: Pick<PushHub, 'publish'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    private readonly opts: RecorderOptions = DEFAULT_RECORDER_OPTIONS,
  ) {}

  /** The device's event is acknowledged once stored (a failed write leaves it to the device's re-send). */
  private readonly onEvent = (sn: string, m: LinkEnvelope, settle?: (stored: Promise<unknown>) => void) =>
    settle?.(this.enqueue(sn, () => this.handleEvent(sn, m)));
  private readonly onTelemetry = (sn: string, d: LiveDevice) => this.track(sn, d);
  private offBus: (() => void) | null = null;

  /**
   * Sorties opened or closed by any instance (ourselves included): every instance records the open
   * sortie's track from the telemetry it receives anyway, so a track goes on when the instance that
   * recorded the start stops.
   */
  private readonly onSortie = (n: BusNotices['sortie']) => {
    const current = this.open.get(n.sn);
    if (n.open) {
      if (current?.sortId !== n.sortId) {
        this.open.set(n.sn, { sortId: n.sortId, flightId: n.flightId, missionName: n.missionName, last: null, distance: 0, heardAt: Date.now() });
      }
    } else if (current?.sortId === n.sortId) {
      this.open.delete(n.sn);
    }
  };

  async start(): Promise<void> {
    // Sorties a previous run left open carry on: a flight.end, a new flight or the idle timeout closes them.
    const rows = await this.deps.db
      .selectFrom('sorties')
      .select(['id', 'sn_id', 'flight_id', 'mission_name', 'start_time'])
      .where('end_time', 'is', null)
      .where('state', '=', STATE_NORMAL)
      .orderBy('start_time', 'asc')
      .execute();
    const now = Date.now();
    for (const r of rows) {
      this.open.set(r.sn_id, { sortId: r.id, flightId: r.flight_id, missionName: r.mission_name, last: null, distance: 0, heardAt: now });
    }
    const link = this.deps.live.link;
    this.offBus = this.deps.live.bus.on('sortie', this.onSortie);
    link.on('event', this.onEvent);
    link.on('telemetry', this.onTelemetry);
    this.timers.push(setInterval(() => void this.flush(), this.opts.flushMs));
    this.timers.push(setInterval(() => void this.sweep(), this.opts.sweepMs));
    for (const t of this.timers) t.unref();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const link = this.deps.live.link;
    link.off('event', this.onEvent);
    link.off('telemetry', this.onTelemetry);
    this.offBus?.();
    for (const t of this.timers) clearInterval(t);
    await Promise.allSettled([...this.chains.values()]);
    await this.flush();
  }

  /** The open sortie of a device (tests, diagnostics). */
  openOf(sn: string): string | null {
    return this.open.get(sn)?.sortId ?? null;
  }

  /**
   * Writes the buffered points (one insert per chunk) and the distance flown so far of the open sorties this
   * instance writes, so lists show it while the drone flies; flushes never overlap.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      await this.writeDistances();
      const rows = this.buffer;
      if (rows.length === 0) return;
      this.buffer = [];
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        try {
          await this.deps.db
            .insertInto('sortie_track')
            .values(rows.slice(i, i + INSERT_CHUNK))
            .onConflict((oc) => oc.columns(['sort_id', 't']).doNothing())
            .execute();
        } catch (err) {
          // A sortie deleted meanwhile (foreign key) or a database hiccup: the points are lost, the flight is not.
          this.log.warn({ err: (err as Error).message }, 'sortie recorder: track points not stored');
        }
      }
    });
    return this.flushing;
  }

  private async writeDistances(): Promise<void> {
    const due: { open: { sortId: string; written?: number }; metres: number }[] = [];
    for (const [sn, open] of this.open) {
      const metres = Math.round(open.distance);
      if (metres !== (open.written ?? 0) && this.deps.live.link.owns(sn)) due.push({ open, metres });
    }
    for (let i = 0; i < due.length; i += DISTANCE_CHUNK) {
      if (i > 0) await yieldToLoop();
      const chunk = due.slice(i, i + DISTANCE_CHUNK);
      const cases = sql.join(
        chunk.map((d) => sql`when ${d.open.sortId} then ${d.metres}`),
        sql` `,
      );
      try {
        // Only while open: flight.end writes the device's own figure.
        await this.deps.db
          .updateTable('sorties')
          .set({ distance: sql<number>`case id ${cases} else distance end` })
          .where('id', 'in', chunk.map((d) => d.open.sortId))
          .where('end_time', 'is', null)
          .execute();
        for (const d of chunk) d.open.written = d.metres;
      } catch (err) {
        this.log.warn({ err: (err as Error).message, sorties: chunk.length }, 'sortie recorder: distances not stored');
      }
    }
  }

  /** Runs the job after the device's earlier ones; answers the job's own outcome (the chain goes on regardless). */
  private enqueue(sn: string, job: () => Promise<void>): Promise<void> {
    const prev = this.chains.get(sn) ?? Promise.resolve();
    const run = prev.then(job);
    const next = run.catch((err: unknown) => this.log.warn({ err: (err as Error).message, sn }, 'sortie recorder: event failed'));
    this.chains.set(sn, next);
    void next.then(() => {
      if (this.chains.get(sn) === next) this.chains.delete(sn);
    });
    return run;
  }

  private track(sn: string, d: LiveDevice): void {
    const open = this.open.get(sn);
    const drone = d.telemetry?.drone;
    if (!open || !drone) return;
    const point = pointOf(drone, trackTime(d));
    open.heardAt = Date.now();
    if (!keepPoint(open.last, point)) return;
    if (open.last) open.distance += haversineDistance(open.last, point);
    open.last = point;
    // Every instance follows the flight (it may take the device over); its owner writes the track.
    if (this.deps.live.link.owns(sn)) this.buffer.push({ sort_id: open.sortId, ...point });
  }

  private async handleEvent(sn: string, m: LinkEnvelope): Promise<void> {
    const open = this.open.get(sn);
    if (open) open.heardAt = Date.now();
    switch (m.method) {
      case FlightMethod.FLIGHT_START: {
        const data = flightStartEvent.safeParse(m.data);
        if (!data.success) return this.bad(sn, m.method, data.error.message);
        return this.started(sn, data.data);
      }
      case FlightMethod.FLIGHT_END: {
        const data = flightEndEvent.safeParse(m.data);
        if (!data.success) return this.bad(sn, m.method, data.error.message);
        return this.ended(sn, data.data);
      }
      case FlightMethod.ALTERNATE: {
        const data = alternateLandingEvent.safeParse(m.data);
        if (!data.success) return this.bad(sn, m.method, data.error.message);
        return this.alternate(sn, data.data);
      }
      default:
        return;
    }
  }

  private bad(sn: string, method: string, why: string): void {
    this.log.warn({ sn, method, why }, 'sortie recorder: event data ignored');
  }

  private async companyOf(sn: string): Promise<string | null> {
    const row = this.deps.live.directory.get(sn) ?? (await findDeviceBySn(this.deps.db, sn));
    return row ? row.company_id : null;
  }

  private async started(sn: string, e: ReturnType<typeof flightStartEvent.parse>): Promise<void> {
    const { db } = this.deps;
    const company = await this.companyOf(sn);
    if (company === null) return;
    const existing = await db.selectFrom('sorties').select(['id', 'mission_name']).where('flight_id', '=', e.flight_id).executeTakeFirst();
    if (existing) return; // a repeat (or another instance recorded it)
    // A new flight means any earlier one of this device is over, whatever happened to its flight.end.
    const stale = await db.selectFrom('sorties').select('id').where('sn_id', '=', sn).where('end_time', 'is', null).execute();
    for (const s of stale) await this.close(sn, s.id, {});
    const mission = e.mission_id
      ? await db.selectFrom('missions').select(['name', 'mission_type', 'waypoints']).where('id', '=', e.mission_id).executeTakeFirst()
      : undefined;
    const who = await db
      .selectFrom('command_log')
      .select(['u_id', 'user_name', 'params'])
      .where('flight_id', '=', e.flight_id)
      .orderBy('created_at', 'asc')
      .executeTakeFirst();
    const id = randomUUID();
    const missionName = e.mission_name ?? mission?.name ?? '';
    const res = await db
      .insertInto('sorties')
      .values({
        id,
        flight_id: e.flight_id,
        sn_id: sn,
        uav_id: e.uav_sn,
        company_id: company,
        mission_id: e.mission_id,
        mission_name: missionName,
        mission_type: mission?.mission_type ?? 0,
        u_id: who?.u_id ?? '',
        user_name: who?.user_name ?? '',
        start_time: toSeconds(e.started_at) || nowSeconds(),
        created_at: nowSeconds(),
        plan: mission ? JSON.stringify(plannedRoute(mission.waypoints, who?.params)) : null,
      })
      .onConflict((oc) => oc.column('flight_id').doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 1) === 0) return;
    this.deps.live.bus.send('sortie', { sn, sortId: id, flightId: e.flight_id, missionName, open: true });
    await attachEarlyResults(db, sn, e.flight_id, id);
    this.push(sn, { sn_id: sn, sort_id: id, state: 'started', mission_name: missionName });
    this.deps.changes.changed(company, 'sorties');
  }

  private async ended(sn: string, e: ReturnType<typeof flightEndEvent.parse>): Promise<void> {
    const row = await this.deps.db
      .selectFrom('sorties')
      .select('id')
      .where('flight_id', '=', e.flight_id)
      .where('sn_id', '=', sn)
      .where('end_time', 'is', null)
      .executeTakeFirst();
    if (!row) return;
    await this.close(sn, row.id, { end: toSeconds(e.ended_at), distance: e.distance, place: e.place });
  }

  /** Flushes the track, then closes the sortie with its result count. */
  private async close(sn: string, sortId: string, end: { end?: number; distance?: number; place?: number }): Promise<void> {
    const open = this.open.get(sn);
    const mine = open?.sortId === sortId ? open : null;
    if (mine) this.open.delete(sn);
    await this.flush();
    const { db } = this.deps;
    const endTime = end.end ?? (mine ? Math.floor((mine.last?.t ?? mine.heardAt) / 1000) : nowSeconds());
    const res = await db
      .updateTable('sorties')
      .set({ end_time: endTime, distance: end.distance ?? Math.round(mine?.distance ?? 0), place: end.place ?? null })
      .where('id', '=', sortId)
      .where('end_time', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return;
    this.deps.live.bus.send('sortie', { sn, sortId, flightId: mine?.flightId ?? '', missionName: mine?.missionName ?? '', open: false });
    await syncSortieCount(db, sortId);
    const row = await db.selectFrom('sorties').select(['mission_name', 'company_id']).where('id', '=', sortId).executeTakeFirst();
    this.push(sn, { sn_id: sn, sort_id: sortId, state: 'ended', mission_name: row?.mission_name ?? '' });
    if (row) this.deps.changes.changed(row.company_id, 'sorties');
  }

  private async alternate(sn: string, e: ReturnType<typeof alternateLandingEvent.parse>): Promise<void> {
    const company = await this.companyOf(sn);
    if (company === null) return;
    await this.deps.db
      .insertInto('alternate_landings')
      .values({ id: randomUUID(), sn_id: sn, company_id: company, ...e, create_time: nowSeconds() })
      .onConflict((oc) => oc.columns(['sn_id', 'flight_id', 'timestamp']).doNothing())
      .execute();
  }

  /** Closes sorties that went quiet (the device restarted, the flight.end never came); answers when done. */
  async sweep(now = Date.now()): Promise<void> {
    const cutoff = now - this.opts.idleMs;
    for (const [sn, o] of this.open) {
      if (o.heardAt < cutoff) void this.enqueue(sn, () => this.close(sn, o.sortId, {}));
    }
    await Promise.allSettled([...this.chains.values()]);
  }

  private push(sn: string, data: SortiePush): void {
    this.hub.publish(sn, PushMsgId.SORTIE, data);
  }
}

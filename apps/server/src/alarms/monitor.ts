import { randomUUID } from 'node:crypto';
import {
  ALARM_KIND_LEVEL,
  FlightMethod,
  HEALTH_EVENT,
  alternateLandingEvent,
  healthAlarmLevel,
  flowProgressSchema,
  type AlarmKindValue,
  type AlarmPush,
  type HealthItem,
  type LinkEnvelope,
} from '@nest/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { LiveDevice } from '../link/adapter.js';
import type { PushHub } from '../push/hub.js';
import { healthItemsOf, normalCode, storedHealthOf } from './health.js';
import { RuleBook, TELEMETRY_KINDS, inAir, type RuleTiming, type TelemetryKind } from './rules.js';
import { STATE_PENDING, deviceNameOf, eventAlarmId, pendingCount, presentAlarm, type AlarmRow } from './store.js';

/** Kinds whose episodes last until a condition ends (the others are one-off events, closed when raised). */
const LASTING_KINDS: readonly AlarmKindValue[] = [...TELEMETRY_KINDS, 'offline_in_flight'];

export interface RaiseInput {
  kind: AlarmKindValue;
  value: number | null;
  detail: string;
  at: number;
  /** One-off alarms: a deterministic id (see eventAlarmId) and cleared_at = at. */
  eventId?: string;
  flightId?: string | null;
  /** The level when not the kind's usual one (ALARM_KIND_LEVEL): device_health takes its item's. */
  level?: 10 | 20 | 30;
  /** What the text is made of (column `data`, JSON), for kinds that keep it. */
  data?: string;
}

/** device_health episodes are one per device and code (`detail`), not one per device and kind. */
const HEALTH_KIND: AlarmKindValue = 'device_health';

/** How many one-off alarm ids a monitor remembers having pushed. */
const ANNOUNCED_MEMORY = 1000;

/** The open sortie of a device, if any (the sortie recorder answers it). */
export interface OpenSorties {
  openOf(sn: string): string | null;
}

/**
 * Watches the device link and keeps the `alarms` table (one row per episode) in step with what devices
 * report: telemetry through the rule book (debounce, hysteresis), presence (offline_in_flight) and
 * events (flow_failed, alternate_landing). Every change goes out as push 370 and a 380 'alarms' notice.
 *
 * Several server instances each run a monitor on the same device traffic: the partial unique index on
 * open episodes (sn_id, kind) and the deterministic ids of one-off alarms let exactly one insert win;
 * every instance then pushes the stored row to its own sockets. Work of one device runs in order (a
 * chain per sn), so a raise and its clear cannot cross.
 */
export class AlarmMonitor {
  readonly rules: RuleBook;
  private readonly chains = new Map<string, Promise<void>>();
  /** One-off alarms this instance pushed already (devices repeat events): ids, oldest first. */
  private readonly announced = new Set<string>();
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly hub: Pick<PushHub, 'broadcastAlarm'>,
    /** The open sortie of a device (sorties): a device with one is flying. */
    private readonly sorties: OpenSorties,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    timing?: RuleTiming,
  ) {
    this.rules = new RuleBook(timing);
  }

  private readonly onTelemetry = (sn: string, d: LiveDevice) => {
    if (!d.telemetry) return;
    const transitions = this.rules.evaluate(sn, d.telemetry, d.telemetryAt ?? Date.now());
    // Every instance keeps the rules' state (it may take the device over); the device's owner acts.
    if (transitions.length === 0 || !this.deps.live.link.owns(sn)) return;
    const at = d.telemetryAt ?? Date.now();
    for (const t of transitions) {
      if (t.action === 'raise') void this.enqueue(sn, () => this.raiseLasting(sn, t.kind, { kind: t.kind, value: t.value, detail: t.detail, at }));
      else void this.enqueue(sn, () => this.clear(sn, t.kind, at));
    }
  };

  /**
   * offline_in_flight is raised on the link's word alone: a last-will, or silence the link has judged
   * against what it read from the broker (link/nest/service.ts sweep()), so a server that stalled or lost its
   * broker connection raises none for devices that kept talking.
   */
  private readonly onOnline = (sn: string, online: boolean, d: LiveDevice) => {
    const now = Date.now();
    if (!this.deps.live.link.owns(sn)) {
      if (!online) this.rules.resetCounts(sn);
      return;
    }
    if (online) {
      void this.enqueue(sn, () => this.clear(sn, 'offline_in_flight', now));
      return;
    }
    this.rules.resetCounts(sn);
    const flying = inAir(d.telemetry?.drone) || this.sorties.openOf(sn) !== null;
    if (flying) void this.enqueue(sn, () => this.raise(sn, { kind: 'offline_in_flight', value: null, detail: '', at: now }));
  };

  /**
   * One-off alarms from events, and health episodes from `health` events: the event is acknowledged once the
   * alarms are stored (else the device re-sends it).
   */
  private readonly onEvent = (sn: string, m: LinkEnvelope, settle?: (stored: Promise<unknown>) => void) => {
    if (m.method === HEALTH_EVENT) {
      const read = healthItemsOf(m.data);
      if (!read) return;
      settle?.(this.enqueue(sn, () => this.applyHealth(sn, read.items, read.unreadable, Date.now())));
    } else if (m.method === FlightMethod.FLOW_PROGRESS) {
      const flow = flowProgressSchema.safeParse(m.data);
      if (!flow.success || flow.data.state !== 'failed') return;
      const f = flow.data;
      const failed = f.steps.find((s) => s.state === 'failed') ?? f.steps[f.current];
      const step = failed?.step ?? '';
      const stored = this.enqueue(sn, () =>
        this.raise(sn, {
          kind: 'flow_failed',
          value: f.error,
          detail: step,
          at: Date.now(),
          eventId: eventAlarmId(sn, 'flow_failed', f.flow_id, f.started_at),
          flightId: f.flow_id,
        }),
      );
      settle?.(stored);
    } else if (m.method === FlightMethod.ALTERNATE) {
      const a = alternateLandingEvent.safeParse(m.data);
      if (!a.success) return;
      const stored = this.enqueue(sn, () =>
        this.raise(sn, {
          kind: 'alternate_landing',
          value: a.data.reason,
          detail: '',
          at: Date.now(),
          eventId: eventAlarmId(sn, 'alternate_landing', a.data.flight_id, a.data.timestamp),
          flightId: a.data.flight_id || null,
        }),
      );
      settle?.(stored);
    }
  };

  /**
   * A device's health report is the list of what it reports now: each code listed and not open opens an
   * episode (its level, text key and arguments from the item), each open code no longer listed is cleared.
   * `keep`: codes of unreadable items, neither opened nor cleared. A code keeps the level and text it was
   * raised with while it stays listed. A device going offline leaves its health episodes open: what it
   * reported has not been resolved, and its first report once back decides.
   */
  private async applyHealth(sn: string, items: readonly HealthItem[], keep: ReadonlySet<string>, at: number): Promise<void> {
    const open = await this.deps.db
      .selectFrom('alarms')
      .selectAll()
      .where('sn_id', '=', sn)
      .where('kind', '=', HEALTH_KIND)
      .where('cleared_at', 'is', null)
      .execute();
    const openCodes = new Set(open.map((r) => r.detail));
    const listed = new Set<string>(keep);
    for (const item of items) {
      const code = normalCode(item.code);
      listed.add(code);
      if (openCodes.has(code)) continue;
      await this.raise(sn, {
        kind: HEALTH_KIND,
        level: healthAlarmLevel(item.level),
        value: null,
        detail: code,
        data: JSON.stringify(storedHealthOf(item)),
        at,
      });
    }
    for (const row of open) if (!listed.has(row.detail)) await this.clearRow(row, at);
  }

  async start(): Promise<void> {
    // Episodes left open (by an earlier run or another instance) carry on: the rules clear them.
    const open = await this.deps.db
      .selectFrom('alarms')
      .select(['sn_id', 'kind'])
      .where('cleared_at', 'is', null)
      .where('kind', 'in', [...TELEMETRY_KINDS])
      .execute();
    for (const r of open) this.rules.setOpen(r.sn_id, r.kind as TelemetryKind, true);
    const link = this.deps.live.link;
    link.on('telemetry', this.onTelemetry);
    link.on('online', this.onOnline);
    link.on('event', this.onEvent);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const link = this.deps.live.link;
    link.off('telemetry', this.onTelemetry);
    link.off('online', this.onOnline);
    link.off('event', this.onEvent);
    await this.idle();
  }

  /** Resolves once every queued write is done (tests). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  /** Runs the job after the device's earlier ones; answers the job's own outcome (the chain goes on regardless). */
  private enqueue(sn: string, job: () => Promise<void>): Promise<void> {
    const prev = this.chains.get(sn) ?? Promise.resolve();
    const run = prev.then(job);
    const next = run.catch((err: unknown) => this.log.warn({ err: (err as Error).message, sn }, 'alarm monitor: write failed'));
    this.chains.set(sn, next);
    void next.then(() => {
      if (this.chains.get(sn) === next) this.chains.delete(sn);
    });
    return run;
  }

  /** Where the device is: the drone while it flies, else the nest, else the drone, else its registered place. */
  private position(sn: string): { lat: number | null; lng: number | null } {
    const t = this.deps.live.link.device(sn)?.telemetry;
    const drone = t?.drone;
    if (drone && (inAir(drone) || !t.nest)) return { lat: drone.lat, lng: drone.lng };
    if (t?.nest) return { lat: t.nest.lat, lng: t.nest.lng };
    const row = this.deps.live.directory.get(sn);
    return { lat: row?.airport_lat ?? null, lng: row?.airport_lng ?? null };
  }

  /** The flight the device is on, if one is known. */
  private flightOf(sn: string): string | null {
    const d = this.deps.live.link.device(sn);
    const mission = d?.state?.mission;
    if (mission && ['running', 'paused', 'returning'].includes(mission.state)) return mission.flight_id;
    return inAir(d?.telemetry?.drone) ? (mission?.flight_id ?? null) : null;
  }

  private async raiseLasting(sn: string, kind: TelemetryKind, input: RaiseInput): Promise<void> {
    try {
      await this.raise(sn, input);
    } catch (err) {
      // Not stored: count afresh, so the next samples try again.
      this.rules.setOpen(sn, kind, false);
      throw err;
    }
  }

  /**
   * Opens an episode (or stores a one-off alarm) and pushes it. When another instance stored it first the
   * insert changes nothing, and the stored row is pushed to this instance's sockets.
   */
  async raise(sn: string, input: RaiseInput): Promise<void> {
    const device = this.deps.live.directory.get(sn);
    if (!device) return;
    const { lat, lng } = this.position(sn);
    const id = input.eventId ?? randomUUID();
    await this.deps.db
      .insertInto('alarms')
      .values({
        id,
        sn_id: sn,
        company_id: device.company_id,
        kind: input.kind,
        level: input.level ?? ALARM_KIND_LEVEL[input.kind],
        state: STATE_PENDING,
        value: input.value,
        detail: input.detail,
        flight_id: input.flightId !== undefined ? input.flightId : this.flightOf(sn),
        lat,
        lng,
        raised_at: input.at,
        cleared_at: input.eventId ? input.at : null,
        data: input.data ?? null,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    let q = this.deps.db.selectFrom('alarms').selectAll();
    q = input.eventId ? q.where('id', '=', id) : q.where('sn_id', '=', sn).where('kind', '=', input.kind).where('cleared_at', 'is', null);
    if (input.kind === HEALTH_KIND) q = q.where('detail', '=', input.detail);
    const row = await q.executeTakeFirst();
    if (!row) return;
    if (input.eventId) {
      if (this.announced.has(id)) return;
      this.announced.add(id);
      if (this.announced.size > ANNOUNCED_MEMORY) this.announced.delete(this.announced.values().next().value!);
    }
    await this.announce('raised', row);
  }

  /** Closes the open episode of a kind on a device (if any) and pushes it. */
  async clear(sn: string, kind: AlarmKindValue, at: number): Promise<void> {
    if (!LASTING_KINDS.includes(kind)) return;
    const row = await this.deps.db
      .selectFrom('alarms')
      .selectAll()
      .where('sn_id', '=', sn)
      .where('kind', '=', kind)
      .where('cleared_at', 'is', null)
      .executeTakeFirst();
    if (row) await this.clearRow(row, at);
  }

  /** Closes an open episode (unless another instance did) and pushes the stored row. */
  private async clearRow(row: AlarmRow, at: number): Promise<void> {
    await this.deps.db.updateTable('alarms').set({ cleared_at: at }).where('id', '=', row.id).where('cleared_at', 'is', null).execute();
    const stored = await this.deps.db.selectFrom('alarms').selectAll().where('id', '=', row.id).executeTakeFirst();
    if (stored) await this.announce('cleared', stored);
  }

  private async announce(event: AlarmPush['event'], row: AlarmRow): Promise<void> {
    const device = this.deps.live.directory.get(row.sn_id);
    const pending = await pendingCount(this.deps.db, row.company_id);
    this.hub.broadcastAlarm(row.company_id, { event, alarm: presentAlarm(row, deviceNameOf(device, row.sn_id)), pending });
    this.deps.changes.changed(row.company_id, 'alarms');
  }
}

/** Starts an alarm monitor; stop() waits for its writes (the app stops it on close). */
export function runAlarmMonitor(monitor: AlarmMonitor, log: Pick<FastifyBaseLogger, 'error'>): { stop(): Promise<void> } {
  const started = monitor.start().catch((err: unknown) => log.error({ err }, 'alarm monitor did not start'));
  return {
    stop: async () => {
      await started;
      await monitor.stop();
    },
  };
}

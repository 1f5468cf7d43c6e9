import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database, DatabaseKind } from '../db/index.js';

export const HOUR_MS = 3_600_000;

export interface UptimeSource {
  /** Every registered device: sn and company. */
  devices(): Iterable<{ sn_id: string; company_id: string }>;
  isOnline(sn: string): boolean;
}

export interface UptimeOptions {
  /** How often online devices are sampled (each sample credits the time since the previous one). */
  sampleMs: number;
  /** How often the per-hour totals are written. */
  flushMs: number;
}
export const DEFAULT_UPTIME_OPTIONS: UptimeOptions = { sampleMs: 5_000, flushMs: 60_000 };
/**
 * Hour totals written per statement by a flush, which lets the event loop run between statements. One
 * statement per device kept the loop busy for about 0.2-0.3 s a minute with 2,000 devices on SQLite (its
 * driver answers synchronously): every device message waited meanwhile.
 */
export const UPTIME_ROWS_PER_STATEMENT = 200;

interface Slot {
  sn: string;
  company: string;
  hour: number;
  seconds: number;
  /** Unwritten change since the last flush. */
  dirty: boolean;
}

/**
 * Stores how long each device was online per UTC hour (table device_uptime), from the link's online
 * state. Every sample credits the time since the previous sample to the devices online now, split at hour
 * boundaries; every flush upserts the hour totals keeping the larger of the stored and this instance's
 * value, so several instances watching the same devices agree and a repeated flush changes nothing.
 */
export class UptimeRecorder {
  private readonly slots = new Map<string, Slot>();
  private last: number;
  /** Start of the hour this recorder began in: only that hour can hold time from before it. */
  private readonly firstHour: number;
  private timers: NodeJS.Timeout[] = [];
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly kind: DatabaseKind,
    private readonly source: UptimeSource,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    private readonly opts: UptimeOptions = DEFAULT_UPTIME_OPTIONS,
    now = Date.now(),
  ) {
    this.last = now;
    this.firstHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  }

  private seed = new Map<string, number>();

  /** Reads what is stored for the current hour, then samples and flushes on timers. */
  async start(): Promise<void> {
    const rows = await this.db.selectFrom('device_uptime').select(['sn_id', 'seconds']).where('hour', '=', this.firstHour).execute();
    this.seed = new Map(rows.map((r) => [r.sn_id, Number(r.seconds)]));
    this.timers.push(setInterval(() => this.sample(), this.opts.sampleMs));
    this.timers.push(setInterval(() => void this.flush(), this.opts.flushMs));
    for (const t of this.timers) t.unref();
  }

  async stop(now = Date.now()): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.sample(now);
    await this.flush(now);
  }

  /** Credits [previous sample, now) to every device online now. */
  sample(now = Date.now()): void {
    const from = this.last;
    this.last = now;
    if (now <= from) return;
    for (const d of this.source.devices()) {
      if (!this.source.isOnline(d.sn_id)) continue;
      for (let t = from; t < now; ) {
        const hour = Math.floor(t / HOUR_MS) * HOUR_MS;
        const until = Math.min(now, hour + HOUR_MS);
        this.credit(d.sn_id, d.company_id, hour, (until - t) / 1000);
        t = until;
      }
    }
  }

  private credit(sn: string, company: string, hour: number, seconds: number): void {
    const key = `${sn}\u0000${hour}`;
    let slot = this.slots.get(key);
    if (!slot) {
      // The first hour continues from what was stored when this recorder started (an earlier run, or another
      // instance); later hours are watched whole, so a stored value there is someone else's count of the same time.
      const base = hour === this.firstHour ? (this.seed.get(sn) ?? 0) : 0;
      slot = { sn, company, hour, seconds: base, dirty: false };
      this.slots.set(key, slot);
    }
    slot.seconds = Math.min(3600, slot.seconds + seconds);
    slot.dirty = true;
  }

  /**
   * Writes the changed hour totals, UPTIME_ROWS_PER_STATEMENT per statement; flushes never overlap. A slot
   * is written with its value when its statement starts: a sample taken meanwhile marks it changed again
   * for the next flush, and a statement that fails leaves its slots changed. Hours older than the current
   * one are dropped once written.
   */
  flush(now = Date.now()): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const current = Math.floor(now / HOUR_MS) * HOUR_MS;
      const dirty = [...this.slots.values()].filter((slot) => slot.dirty);
      for (let i = 0; i < dirty.length; i += UPTIME_ROWS_PER_STATEMENT) {
        if (i > 0) await yieldToLoop();
        const chunk = dirty.slice(i, i + UPTIME_ROWS_PER_STATEMENT);
        const rows = chunk.map((slot) => ({ sn_id: slot.sn, company_id: slot.company, hour: slot.hour, seconds: Math.round(slot.seconds) }));
        for (const slot of chunk) slot.dirty = false;
        try {
          await upsertUptime(this.db, this.kind, rows);
        } catch (err) {
          for (const slot of chunk) slot.dirty = true;
          this.log.warn({ err: (err as Error).message, devices: chunk.length }, 'uptime: hours not stored');
        }
      }
      for (const [key, slot] of this.slots) if (slot.hour < current && !slot.dirty) this.slots.delete(key);
    });
    return this.flushing;
  }
}

/**
 * Hour totals (one row per device and hour, no two alike), each keeping the larger of the stored and the
 * given value (max on SQLite, greatest on PostgreSQL), in one statement.
 */
export async function upsertUptime(
  db: Database,
  kind: DatabaseKind,
  rows: readonly { sn_id: string; company_id: string; hour: number; seconds: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  const larger =
    kind === 'postgres'
      ? sql<number>`greatest(device_uptime.seconds, excluded.seconds)`
      : sql<number>`max(device_uptime.seconds, excluded.seconds)`;
  await db
    .insertInto('device_uptime')
    .values([...rows])
    .onConflict((oc) => oc.columns(['sn_id', 'hour']).doUpdateSet({ seconds: larger, company_id: (eb) => eb.ref('excluded.company_id') }))
    .execute();
}

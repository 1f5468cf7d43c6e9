import type { Kysely } from 'kysely';
import type { DB, DeviceRow } from '../db/schema.js';
import { nowSeconds } from '../db/index.js';
import { devicesStamp, loadDevicesAfter } from './store.js';
import { sees, type Scope } from '../db/scope.js';

export { inScope, sees, type Scope } from '../db/scope.js';

/**
 * The registered devices (not deleted) in memory, by sn: the device link checks every message against it
 * without a query, and push fan-out uses it for company scoping. Reloaded from the database after a change
 * made through this server or told by another instance (`reload()`, `changed()`), (at most once per
 * MISS_RELOAD_MS) when a message arrives from an sn it does not know, so a device registered by another
 * instance is picked up within seconds, and when the periodic check (`poll()`, every RELOAD_MS) finds the
 * table changed: a change written elsewhere (the CLI) shows within RELOAD_MS.
 *
 * The check reads two figures instead of every row: the number of rows and the latest `updated_at`. Every
 * write of the device store moves one of them, unless it falls within the second the last reload started
 * in, which is why a latest `updated_at` at or after that second reloads too. Every FULL_EVERY-th check
 * reloads whatever the figures say (a writer whose clock runs behind).
 *
 * A reload reads the devices in pages of READ_PAGE rows and lets the event loop run between them, and
 * keeps the row object of every device whose columns did not change: with a city's fleet, one read of
 * every row held up every call and device message for 100 ms and more every RELOAD_MS, and new objects of
 * unchanged rows made every reader start over (the device list's name order and items, the push hub's
 * visible sets).
 */
export class DeviceDirectory {
  static readonly RELOAD_MS = 30_000;
  static readonly MISS_RELOAD_MS = 5_000;
  /** Every this many periodic checks, a reload whatever the figures say (five minutes). */
  static readonly FULL_EVERY = 10;
  /** Rows read at once by a reload: a few milliseconds of the event loop. */
  static readonly READ_PAGE = 500;
  private bySn = new Map<string, DeviceRow>();
  private loads = 0;
  private timer: NodeJS.Timeout | null = null;
  private lastMissReload = 0;
  private loading: Promise<void> | null = null;
  private readonly listeners = new Set<(changed: string[]) => void>();
  private readonly accountListeners = new Set<(changed: string[]) => void>();
  /** Tells the other server instances that the registry changed (the cluster bus; nothing for one instance). */
  private share: () => void = () => undefined;
  /** The table's figures when the last reload started, and the second it started in (null: none yet). */
  private stamp: { rows: number; updatedAt: number; second: number } | null = null;
  private checks = 0;

  constructor(private readonly db: Kysely<DB>) {}

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => void this.poll().catch(() => undefined), DeviceDirectory.RELOAD_MS);
    this.timer.unref();
  }

  /**
   * The periodic check: reloads when the table's figures moved since the last reload started, or a write
   * may have fallen within that reload's second, or every FULL_EVERY-th time. Answers whether it reloaded.
   */
  async poll(): Promise<boolean> {
    const full = ++this.checks % DeviceDirectory.FULL_EVERY === 0;
    const last = this.stamp;
    if (!full && last) {
      const now = await devicesStamp(this.db);
      if (now.rows === last.rows && now.updatedAt === last.updatedAt && now.updatedAt < last.second) return false;
    }
    await this.reload();
    return true;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reads every device again; listeners hear which sns were added, changed (any column) or removed. */
  reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        // Read before the rows: a write after this is seen by the next check (it moves a figure, or it falls
        // within this second).
        const second = nowSeconds();
        const figures = await devicesStamp(this.db);
        const next = new Map<string, DeviceRow>();
        // Whether any row object differs from the last load's (added, changed, removed).
        let differs = false;
        // The columns of a row as the driver answers them, read once per reload.
        let columns: (keyof DeviceRow)[] | null = null;
        for (let after = '', first = true; ; first = false) {
          // The event loop runs between pages (an await of a synchronous driver's answer would not let it).
          if (!first) await new Promise((resolve) => setImmediate(resolve));
          const page = await loadDevicesAfter(this.db, after, DeviceDirectory.READ_PAGE);
          columns ??= page.length > 0 ? (Object.keys(page[0]!) as (keyof DeviceRow)[]) : null;
          for (const row of page) {
            const old = this.bySn.get(row.sn_id);
            if (old && sameColumns(old, row, columns!)) next.set(row.sn_id, old);
            else {
              next.set(row.sn_id, row);
              differs = true;
            }
          }
          if (page.length < DeviceDirectory.READ_PAGE) break;
          after = page[page.length - 1]!.id;
        }
        if (next.size !== this.bySn.size) differs = true;
        this.stamp = { ...figures, second };
        if (!differs) return;
        // The sns whose row object is new (added, or a column changed) or gone.
        const changed: string[] = [];
        const accounts: string[] = [];
        for (const [sn, row] of next) {
          const old = this.bySn.get(sn);
          if (old === row) continue;
          // Whose broker account changed: its connection was made under the old account.
          const changedAccount =
            old !== undefined && (Number(old.secret_gen) !== Number(row.secret_gen) || Number(old.protocol) !== Number(row.protocol) || old.uav_sn !== row.uav_sn);
          if (changedAccount) accounts.push(sn);
          // Any column: a change within updated_at's second is a change too.
          changed.push(sn);
        }
        for (const sn of this.bySn.keys()) if (!next.has(sn)) changed.push(sn);
        this.bySn = next;
        this.loads++;
        if (changed.length > 0) for (const l of this.listeners) l(changed);
        if (accounts.length > 0) for (const l of this.accountListeners) l(accounts);
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /**
   * A change made through this server was written: read the devices again and tell the other instances
   * to do the same. A reload already running may have read the devices before the write, so it is waited
   * for and the reload that follows it (started after the write) is the one that counts; with none running,
   * one reload (each costs about 200 ms of CPU with 10,000 devices).
   */
  async changed(): Promise<void> {
    if (this.loading) await this.loading.catch(() => undefined);
    await this.reload();
    this.share();
  }

  /** How `changed()` reaches the other instances (set once by the composition root). */
  shareChangesWith(share: () => void): void {
    this.share = share;
  }

  /**
   * A message came from an unknown sn: reload, at most once per MISS_RELOAD_MS. Answers the running reload
   * (so the caller may look again when it is done), or null when none runs.
   */
  miss(): Promise<void> | null {
    if (this.loading) return this.loading;
    const now = Date.now();
    if (now - this.lastMissReload < DeviceDirectory.MISS_RELOAD_MS) return null;
    this.lastMissReload = now;
    const loading = this.reload();
    loading.catch(() => undefined);
    return loading;
  }

  /**
   * Rises with every load that changed a row object (a device added, removed, or any of its columns
   * changed; an unchanged device keeps its object): what a reader derives from the rows (the device
   * list's order, the push hub's visible sets) is current while this stays the same.
   */
  get generation(): number {
    return this.loads;
  }

  get(sn: string): DeviceRow | undefined {
    return this.bySn.get(sn);
  }

  all(): IterableIterator<DeviceRow> {
    return this.bySn.values();
  }

  /** The devices the scope sees (its own and those shared with it). */
  visible(scope: Scope): DeviceRow[] {
    return [...this.bySn.values()].filter((r) => sees(scope, r));
  }

  onChange(listener: (changed: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Devices whose broker account changed (password generation, protocol, a DJI gateway's drone), also when
   * changed outside this server (the CLI, another instance): their current connection was made under the
   * old account and should be closed.
   */
  onAccountChange(listener: (changed: string[]) => void): () => void {
    this.accountListeners.add(listener);
    return () => this.accountListeners.delete(listener);
  }
}

/** Whether two reads of a device's row have the same value in every column (`columns`: the keys of a row). */
function sameColumns(a: DeviceRow, b: DeviceRow, columns: readonly (keyof DeviceRow)[]): boolean {
  for (const key of columns) {
    if (a[key] !== b[key]) return false;
  }
  return true;
}

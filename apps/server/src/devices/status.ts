import { EventEmitter } from 'node:events';
import { OnlineStatus, type DeviceStatusPush } from '@nest/contracts';
import { sql, type Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { DB } from '../db/schema.js';
import type { DeviceLink } from '../link/adapter.js';

export type Status = 1 | 2 | 3;
export const STATUS_ONLINE: Status = OnlineStatus.ONLINE;
export const STATUS_OFFLINE: Status = OnlineStatus.OFFLINE;
export const STATUS_HELD: Status = OnlineStatus.CONNECTED_BY_OTHER;

export interface Holder {
  u_id: string;
  nick: string;
  /** When the hold began (s). */
  since: number;
  /** Last connect/renewal (ms, this instance's clock). */
  renewedAt: number;
}

/** Server-internal topic on which instances tell each other that a device's hold changed. */
export const CONTROL_NOTICE_TOPIC = 'nest-server/v1/control';

export type ConnectResult = { ok: true; holder: Holder; expiresAt: number } | { ok: false; holder: Holder | null };

/**
 * Online status of every device (SPEC: 1 online, 2 offline, 3 connected by someone) = link online state
 * + who holds the control connection (table device_control, cached here). A hold lasts `holdSeconds`
 * after its last renewal; a sweep every second ends expired holds. Emits `status` whenever a device's
 * status or holder changes. Holds changed by another server instance arrive as notices on
 * CONTROL_NOTICE_TOPIC and are re-read from the database.
 */
export class DeviceStatusBoard extends EventEmitter<{ status: [sn: string, status: DeviceStatusPush] }> {
  private readonly holds = new Map<string, Holder>();
  private timer: NodeJS.Timeout | null = null;
  private readonly instance = Math.random().toString(36).slice(2);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly link: DeviceLink,
    private readonly holdSeconds: number,
  ) {
    super();
  }

  async start(): Promise<void> {
    const rows = await this.db
      .selectFrom('device_control')
      .innerJoin('users', 'users.u_id', 'device_control.u_id')
      .select(['device_control.sn_id', 'device_control.u_id', 'users.nick', 'device_control.since', 'device_control.last_seen'])
      .where('device_control.last_seen', '>=', nowSeconds() - this.holdSeconds)
      .execute();
    for (const r of rows) {
      this.holds.set(r.sn_id, { u_id: r.u_id, nick: r.nick, since: Number(r.since), renewedAt: Number(r.last_seen) * 1000 });
    }
    this.link.on('online', (sn) => this.emit('status', sn, this.snapshot(sn)));
    this.link.on('internal', (topic, payload) => {
      if (!topic.startsWith(`${CONTROL_NOTICE_TOPIC}/`)) return;
      const sn = topic.slice(CONTROL_NOTICE_TOPIC.length + 1);
      try {
        const notice = JSON.parse(payload.toString('utf8')) as { from?: string };
        if (notice.from === this.instance) return;
      } catch {
        return;
      }
      void this.reload(sn).catch(() => undefined);
    });
    this.timer = setInterval(() => this.expire(), 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private expired(h: Holder, now: number): boolean {
    return now - h.renewedAt >= this.holdSeconds * 1000;
  }

  /**
   * The current holder of a device (null when nobody, or the hold expired). Asked for every status push and
   * telemetry frame: `now` (ms) lets a caller that asks for many devices read the clock once.
   */
  holder(sn: string, now?: number): Holder | null {
    const h = this.holds.get(sn);
    if (h === undefined) return null;
    return this.expired(h, now ?? Date.now()) ? null : h;
  }

  /** When the current hold ends (Unix seconds), null when not held. */
  expiresAt(sn: string): number | null {
    const h = this.holder(sn);
    return h ? Math.ceil((h.renewedAt + this.holdSeconds * 1000) / 1000) : null;
  }

  /** A device's status (`now`: as for holder()). */
  status(sn: string, now?: number): Status {
    if (!this.link.isOnline(sn)) return STATUS_OFFLINE;
    return this.holder(sn, now) ? STATUS_HELD : STATUS_ONLINE;
  }

  snapshot(sn: string): DeviceStatusPush {
    const h = this.holder(sn);
    return { sn_id: sn, state: this.status(sn), connected_by: h ? { u_id: h.u_id, nick: h.nick } : null };
  }

  /**
   * Takes or renews the hold for a user, atomically in the database: succeeds when nobody holds the
   * device, the caller already does, or the other hold expired.
   */
  async connect(sn: string, user: { u_id: string; nick: string }): Promise<ConnectResult> {
    const now = nowSeconds();
    const cutoff = now - this.holdSeconds;
    await this.db
      .insertInto('device_control')
      .values({ sn_id: sn, u_id: user.u_id, since: now, last_seen: now })
      .onConflict((oc) =>
        oc
          .column('sn_id')
          .doUpdateSet({
            u_id: (eb) => eb.ref('excluded.u_id'),
            since: sql<number>`case when device_control.u_id = excluded.u_id then device_control.since else excluded.since end`,
            last_seen: (eb) => eb.ref('excluded.last_seen'),
          })
          .where((eb) => eb.or([eb('device_control.u_id', '=', user.u_id), eb('device_control.last_seen', '<', cutoff)])),
      )
      .execute();
    const before = this.holder(sn);
    const row = await this.readHold(sn);
    if (!row || row.u_id !== user.u_id) {
      if (row) this.setHold(sn, row);
      return { ok: false, holder: this.holder(sn) };
    }
    const holder: Holder = { ...row, renewedAt: Date.now() };
    this.holds.set(sn, holder);
    if (before?.u_id !== holder.u_id) this.changed(sn);
    return { ok: true, holder, expiresAt: this.expiresAt(sn) ?? now + this.holdSeconds };
  }

  /** Ends the caller's hold; false when someone else holds the device. */
  async release(sn: string, uId: string): Promise<boolean> {
    await this.db.deleteFrom('device_control').where('sn_id', '=', sn).where('u_id', '=', uId).execute();
    const row = await this.readHold(sn);
    if (row && row.u_id !== uId && Number(row.last_seen) >= nowSeconds() - this.holdSeconds) {
      this.setHold(sn, row);
      return false;
    }
    const had = this.holds.delete(sn);
    if (had) this.changed(sn);
    return true;
  }

  /**
   * Ends every hold of a user who can no longer fly (signed out everywhere, deleted, disabled, validity
   * ended, control function taken away): the devices are free for others at once instead of when the hold
   * lapses.
   */
  async releaseUser(uId: string): Promise<void> {
    const rows = await this.db.selectFrom('device_control').select('sn_id').where('u_id', '=', uId).execute();
    for (const r of rows) await this.release(r.sn_id, uId);
  }

  /** Re-reads one device's hold (a notice from another instance). */
  async reload(sn: string): Promise<void> {
    const before = this.holder(sn);
    const row = await this.readHold(sn);
    if (row && Number(row.last_seen) >= nowSeconds() - this.holdSeconds) this.setHold(sn, row);
    else this.holds.delete(sn);
    const after = this.holder(sn);
    if (before?.u_id !== after?.u_id) this.emit('status', sn, this.snapshot(sn));
  }

  private async readHold(sn: string): Promise<(Omit<Holder, 'renewedAt'> & { last_seen: number }) | null> {
    const r = await this.db
      .selectFrom('device_control')
      .innerJoin('users', 'users.u_id', 'device_control.u_id')
      .select(['device_control.u_id', 'users.nick', 'device_control.since', 'device_control.last_seen'])
      .where('device_control.sn_id', '=', sn)
      .executeTakeFirst();
    return r ? { u_id: r.u_id, nick: r.nick, since: Number(r.since), last_seen: Number(r.last_seen) } : null;
  }

  private setHold(sn: string, row: Omit<Holder, 'renewedAt'> & { last_seen: number }): void {
    const known = this.holds.get(sn);
    // Keep this instance's finer renewal time when it is the same hold.
    const renewedAt = known && known.u_id === row.u_id ? Math.max(known.renewedAt, row.last_seen * 1000) : row.last_seen * 1000;
    this.holds.set(sn, { u_id: row.u_id, nick: row.nick, since: row.since, renewedAt });
  }

  private changed(sn: string): void {
    this.emit('status', sn, this.snapshot(sn));
    this.link.publishInternal(`${CONTROL_NOTICE_TOPIC}/${sn}`, JSON.stringify({ from: this.instance }));
  }

  /** Ends expired holds (status back to 1) and clears their rows. */
  expire(now = Date.now()): void {
    const ended: string[] = [];
    for (const [sn, h] of this.holds) {
      if (this.expired(h, now)) {
        this.holds.delete(sn);
        ended.push(sn);
      }
    }
    if (ended.length === 0) return;
    for (const sn of ended) this.emit('status', sn, this.snapshot(sn));
    void this.db
      .deleteFrom('device_control')
      .where('sn_id', 'in', ended)
      .where('last_seen', '<', nowSeconds() - this.holdSeconds)
      .execute()
      .catch(() => undefined);
  }
}

import { DEVICE_PUSH_FUNCTION, PUSH_VERIFY_LIMIT_MS, PushMsgId, ResultCode, SUPER_ADMINISTRATOR, holds } from '@nest/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket } from 'ws';
import type { Caller } from '../calls/types.js';
import { sees } from '../db/scope.js';
import type { AppDeps } from '../deps.js';
import { CLOSE_NORMAL, CLOSE_POLICY, type PushClient, type Verified } from './client.js';

/** A flight command re-reads a session last read longer ago than this (stick frames come 10-20 a second). */
export const COMMAND_RECHECK_MS = 1000;
/** How often sessions past their clock limit and sockets that never verified are looked for. */
export const SESSION_SWEEP_MS = 5000;

const isSuper = (funList: readonly string[]): boolean => funList.includes(SUPER_ADMINISTRATOR);

/** What a live session may do now and until when it stays live unless something changes. */
export interface SessionAccess {
  funList: string[];
  /** Unix seconds: the first moment the session stops being live by the clock alone. */
  liveUntil: number;
}

/**
 * The reads behind a socket's session: the session itself, what it may do, and the user's shares (the
 * composition root answers them from auth and groups, boot/push.ts).
 */
export interface SessionStore {
  /** The hash a session keeps of its token. */
  tokenHash(token: string): string;
  /** The live session of a token and its user, or null. */
  find(token: string): Promise<Caller | null>;
  /** The session's functions and clock limit, or null when it is no longer live. */
  access(sessionId: string): Promise<SessionAccess | null>;
  /** Devices shared with the user through collaboration groups (cached briefly by groups/shares.ts). */
  shared(userId: string): Promise<ReadonlySet<string>>;
  /** Group membership may have changed: shares are read from the database again on next use. */
  forgetShares(): void;
}

/**
 * Binds push sockets to the live session that verified them (message 100) and keeps that binding true:
 * - the session (and the user's functions, validity, state and collaboration groups) is read again at every
 *   heartbeat and 200, before a flight command when last read over COMMAND_RECHECK_MS ago, and at once on
 *   an `access` notice of the cluster bus;
 * - between reads, nothing goes out or is carried out past the session's clock limit (`liveUntil`);
 *   `sweep()` re-reads those past it and closes sockets that never verified within PUSH_VERIFY_LIMIT_MS;
 * - a session no longer live, or without device_10, ends the socket: 46010 (PUSH_NOT_ALIVE, msg_id 101)
 *   and close 1000 'session ended'; a narrower scope unwatches what the user may no longer see.
 */
export class PushSessions {
  constructor(
    /** The hub's open sockets (read only here). */
    private readonly clients: ReadonlySet<PushClient>,
    private readonly store: SessionStore,
    private readonly live: Pick<AppDeps['live'], 'directory' | 'video'>,
    private readonly log: FastifyBaseLogger,
    /** Stops everything the socket watches (devices, fleet updates): its session changed user or ended. */
    private readonly unwatchAll: (client: PushClient) => void,
  ) {}

  /** The live session of a token (message 100), or null. */
  find(token: string): Promise<Caller | null> {
    return this.store.find(token);
  }

  /**
   * Binds the socket to a live session found by its token (the licence and device_10 already checked);
   * answers false when the session is no longer live. A socket that spoke for another user stops watching.
   */
  async bind(client: PushClient, caller: Caller, token: string): Promise<boolean> {
    const access = await this.store.access(caller.sessionId);
    if (!access) return false;
    if (client.verified && client.verified.userId !== caller.user.u_id) this.unwatchAll(client);
    client.verified = {
      sessionId: caller.sessionId,
      userId: caller.user.u_id,
      tokenHash: this.store.tokenHash(token),
      nick: caller.user.nick,
      scope: { companyId: caller.user.company_id, all: isSuper(access.funList) },
      funList: access.funList,
      liveUntil: access.liveUntil * 1000,
      checkedAt: Date.now(),
    };
    await this.refreshShares(client);
    return true;
  }

  /** Verified, open and inside its session's clock limit; past the limit a re-read is started. */
  deliverable(c: PushClient, now: number): boolean {
    if (c.deliverable(now)) return true;
    if (c.verified && now >= c.verified.liveUntil) void this.recheck(c);
    return false;
  }

  /**
   * Reads the socket's session again: ended (not live, or device_10 gone) -> 46010 and closed; else its
   * functions, clock limit and shares are updated and devices no longer visible are unwatched. Answers
   * whether the socket still speaks for a live session. Concurrent calls share one read.
   */
  recheck(client: PushClient): Promise<boolean> {
    if (!client.verified) return Promise.resolve(false);
    client.rechecking ??= this.read(client).finally(() => {
      client.rechecking = null;
    });
    return client.rechecking;
  }

  private async read(client: PushClient): Promise<boolean> {
    const v = client.verified;
    if (!v) return false;
    let access: SessionAccess | null;
    try {
      access = await this.store.access(v.sessionId);
    } catch (err) {
      // The database cannot say: nothing is carried out for the socket now; it is read again on its next
      // frame or sweep. A connection is not ended for the database's trouble.
      this.log.warn({ err }, 'push: session re-read failed');
      v.checkedAt = 0;
      throw err;
    }
    if (client.verified !== v) return client.verified !== null;
    if (!access || !holds(access.funList, DEVICE_PUSH_FUNCTION)) {
      this.end(client);
      return false;
    }
    v.funList = access.funList;
    v.scope = { ...v.scope, all: isSuper(access.funList) };
    v.liveUntil = access.liveUntil * 1000;
    v.checkedAt = Date.now();
    await this.refreshShares(client);
    return client.verified === v;
  }

  /**
   * The socket's verified session, read again first when past its clock limit or last read over
   * `maxAgeMs` ago; null when the socket no longer speaks for a live session.
   */
  async current(client: PushClient, maxAgeMs: number): Promise<Verified | null> {
    const v = client.verified;
    if (!v) return null;
    const now = Date.now();
    if (now < v.liveUntil && now - v.checkedAt <= maxAgeMs) return v;
    return (await this.recheck(client)) ? client.verified : null;
  }

  /** The session behind the socket ended: 46010 (as an answer to the heartbeat), then closed. */
  private end(client: PushClient): void {
    client.verified = null;
    this.unwatchAll(client);
    client.fail(ResultCode.PUSH_NOT_ALIVE, PushMsgId.HEARTBEAT, 'push.session.ended');
    if (client.ws.readyState === WebSocket.OPEN) client.ws.close(CLOSE_NORMAL, 'session ended');
  }

  /** An access notice: the named users' sockets (null: every socket) are read again at once. */
  accessChanged(notice: { userIds: string[] | null }): void {
    const ids = Array.isArray(notice?.userIds) ? new Set(notice.userIds.filter((u) => typeof u === 'string')) : null;
    if (notice?.userIds !== null && ids === null) return;
    // Group membership may be what changed: shares are read from the database again.
    this.store.forgetShares();
    for (const c of this.clients) {
      if (c.verified && (ids === null || ids.has(c.verified.userId))) {
        void this.recheck(c).catch(() => undefined);
      }
    }
  }

  /**
   * Closes sockets that never verified within PUSH_VERIFY_LIMIT_MS and re-reads sessions past their clock
   * limit (`now` is injectable so tests need not wait).
   */
  sweep(now = Date.now()): void {
    for (const c of this.clients) {
      if (!c.verified) {
        if (now - c.openedAt >= PUSH_VERIFY_LIMIT_MS && c.ws.readyState === WebSocket.OPEN) {
          c.fail(ResultCode.LOGIN_EXPIRED, PushMsgId.USER_VERIFY, 'push.verify.timeout');
          c.ws.close(CLOSE_POLICY, 'not verified');
        }
      } else if (now >= c.verified.liveUntil) {
        void this.recheck(c).catch(() => undefined);
      }
    }
  }

  /**
   * Reads the devices shared with the socket's user again (groups/shares.ts caches them briefly). A device
   * no longer visible (membership ended, group deleted) is unwatched: its 300 / 301 frames stop.
   */
  async refreshShares(client: PushClient): Promise<void> {
    const v = client.verified;
    if (!v || v.scope.all) return;
    const shared = await this.store.shared(v.userId);
    if (client.verified !== v) return;
    v.scope = { ...v.scope, shared };
    for (const sn of [...client.watching]) {
      const row = this.live.directory.get(sn);
      if (row && sees(v.scope, row)) continue;
      client.unwatch(sn);
      this.live.video.unwatch(sn, client);
    }
  }
}

import { randomBytes } from 'node:crypto';
import { LinkMethod } from '@nest/contracts';
import type { DeviceLink, LinkLogger } from '../link/adapter.js';

/** Server-internal topic on which instances announce which devices their sockets watch. */
export const WATCH_NOTICE_TOPIC = 'nest-server/v1/watch';
/** The repeated notice: every device an instance watches, in one message (at most WATCH_LIST_MAX each). */
export const WATCH_LIST_TOPIC = 'nest-server/v1/watching';
export const WATCH_LIST_MAX = 1000;
/** How often an instance repeats its watch notices while it has watchers. */
export const WATCH_HEARTBEAT_MS = 20_000;

/**
 * Why a device's video cannot be produced, from its failed video.start (`output.reason`): no ffmpeg on the
 * machine that makes it, ffmpeg kept failing there, or any other refusal (`unavailable`).
 */
export const VIDEO_UNAVAILABLE_REASONS = ['noFfmpeg', 'ffmpegFailed', 'unavailable'] as const;
export type VideoUnavailableReason = (typeof VIDEO_UNAVAILABLE_REASONS)[number];

/** The reason a failed video.start reply gives (a reason not known here counts as `unavailable`). */
export function unavailableReasonOf(output: unknown): VideoUnavailableReason {
  const r = typeof output === 'object' && output !== null ? (output as { reason?: unknown }).reason : undefined;
  return (VIDEO_UNAVAILABLE_REASONS as readonly unknown[]).includes(r) ? (r as VideoUnavailableReason) : 'unavailable';
}

/** What video on demand needs of the device link. */
export type VideoLink = Pick<DeviceLink, 'isOnline' | 'command' | 'publishInternal' | 'on'>;

/**
 * Drone video on demand. A push socket that verified a device (200) watches it; the first watcher makes
 * the server ask the device to start its video (`video.start`) unless it is streaming already; when the
 * last watcher leaves, the video is stopped (`video.stop`) `idleStopMs` later unless someone came back.
 * Video also starts when a watched device comes (back) online. The device reports `video.streaming` in its
 * retained state; a successful command reply counts too.
 *
 * A device that refuses video.start says why (`unavailable(sn)`, answered by the live route instead of a
 * bare 404, so the console says it and stops retrying); one that stops streaming on its own while watched
 * (its ffmpeg was given up) is asked again, and its refusal gives the reason. A reason is forgotten when the
 * device streams, goes offline, or a new watcher's video.start succeeds.
 *
 * Several server instances: each announces on WATCH_NOTICE_TOPIC/<sn> when its sockets start or stop
 * watching a device, and every WATCH_HEARTBEAT_MS lists all the devices it watches on WATCH_LIST_TOPIC (one
 * message per WATCH_LIST_MAX devices: a notice per device made a burst of thousands of messages with a city's
 * fleet watched); an instance does not stop a video that another instance reported watched within the last
 * 2.5 heartbeats.
 */
export class VideoOnDemand {
  private readonly watchers = new Map<string, Set<object>>();
  private readonly streaming = new Map<string, boolean>();
  private readonly starting = new Set<string>();
  private readonly problems = new Map<string, VideoUnavailableReason>();
  private readonly stopTimers = new Map<string, NodeJS.Timeout>();
  /** Other instances' watchers: sn -> instance -> valid until (ms). */
  private readonly remote = new Map<string, Map<string, number>>();
  private readonly instance = randomBytes(6).toString('hex');
  private readonly heartbeat: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly link: VideoLink,
    private readonly log: LinkLogger,
    private readonly idleStopMs: number,
  ) {
    link.on('state', (sn, live) => {
      const s = live.state?.video?.streaming;
      if (typeof s !== 'boolean') return;
      const was = this.isStreaming(sn);
      this.streaming.set(sn, s);
      if (s) this.problems.delete(sn);
      // Stopped on its own while watched: ask again; a refusal says why.
      else if (was && this.watcherCount(sn) > 0) this.ensureStarted(sn);
    });
    link.on('online', (sn, online) => {
      if (!online) {
        this.streaming.set(sn, false);
        this.problems.delete(sn);
        return;
      }
      if (this.watcherCount(sn) > 0) this.ensureStarted(sn);
    });
    link.on('internal', (topic, payload) => this.onNotice(topic, payload));
    this.heartbeat = setInterval(() => this.announceAll(), WATCH_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Why the device's video cannot be produced, as its last video.start refusal said; null when not known. */
  unavailable(sn: string): VideoUnavailableReason | null {
    return this.problems.get(sn) ?? null;
  }

  isStreaming(sn: string): boolean {
    return this.streaming.get(sn) ?? false;
  }

  watcherCount(sn: string): number {
    return this.watchers.get(sn)?.size ?? 0;
  }

  /** Is the device watched through another server instance (as far as its notices tell)? */
  watchedElsewhere(sn: string, now = Date.now()): boolean {
    const byInstance = this.remote.get(sn);
    if (!byInstance) return false;
    for (const [id, until] of byInstance) if (until <= now) byInstance.delete(id);
    return byInstance.size > 0;
  }

  watch(sn: string, watcher: object): void {
    let set = this.watchers.get(sn);
    if (!set) {
      this.watchers.set(sn, (set = new Set()));
      this.announce(sn, true);
    }
    set.add(watcher);
    const timer = this.stopTimers.get(sn);
    if (timer) {
      clearTimeout(timer);
      this.stopTimers.delete(sn);
    }
    this.ensureStarted(sn);
  }

  unwatch(sn: string, watcher: object): void {
    const set = this.watchers.get(sn);
    if (!set?.delete(watcher) || set.size > 0) return;
    this.watchers.delete(sn);
    this.announce(sn, false);
    this.scheduleStop(sn);
  }

  private scheduleStop(sn: string): void {
    if (this.stopped || this.stopTimers.has(sn)) return;
    const timer = setTimeout(() => {
      this.stopTimers.delete(sn);
      if (this.watcherCount(sn) > 0 || !this.link.isOnline(sn)) return;
      // Someone watches through another instance: look again later.
      if (this.watchedElsewhere(sn)) return this.scheduleStop(sn);
      void this.link.command(sn, LinkMethod.VIDEO_STOP, {}).then((outcome) => {
        if (outcome.status === 'ok') this.streaming.set(sn, false);
        else this.log.info({ sn, outcome: outcome.status }, 'video.stop not confirmed');
      });
    }, this.idleStopMs);
    timer.unref();
    this.stopTimers.set(sn, timer);
  }

  private ensureStarted(sn: string): void {
    if (this.stopped || this.isStreaming(sn) || this.starting.has(sn) || !this.link.isOnline(sn)) return;
    this.starting.add(sn);
    void this.link
      .command(sn, LinkMethod.VIDEO_START, {})
      .then((outcome) => {
        if (outcome.status === 'ok') {
          this.streaming.set(sn, true);
          this.problems.delete(sn);
        } else if (outcome.status === 'failed') {
          const reason = unavailableReasonOf(outcome.reply.output);
          this.problems.set(sn, reason);
          this.log.info({ sn, reason, message: outcome.reply.message }, 'video.start refused');
        } else this.log.info({ sn, outcome: outcome.status }, 'video.start not confirmed');
      })
      .finally(() => this.starting.delete(sn));
  }

  private announce(sn: string, watching: boolean): void {
    if (this.stopped) return;
    this.link.publishInternal(`${WATCH_NOTICE_TOPIC}/${sn}`, JSON.stringify({ from: this.instance, watching }));
  }

  /** Lists every device watched here (the heartbeat). */
  private announceAll(): void {
    if (this.stopped) return;
    const sns = [...this.watchers.keys()];
    for (let i = 0; i < sns.length; i += WATCH_LIST_MAX) {
      this.link.publishInternal(WATCH_LIST_TOPIC, JSON.stringify({ from: this.instance, sns: sns.slice(i, i + WATCH_LIST_MAX) }));
    }
  }

  private onNotice(topic: string, payload: Buffer): void {
    if (topic === WATCH_LIST_TOPIC) return this.onList(payload);
    if (!topic.startsWith(`${WATCH_NOTICE_TOPIC}/`)) return;
    const sn = topic.slice(WATCH_NOTICE_TOPIC.length + 1);
    let notice: { from?: unknown; watching?: unknown };
    try {
      notice = JSON.parse(payload.toString('utf8')) as typeof notice;
    } catch {
      return;
    }
    if (typeof notice.from !== 'string' || notice.from === this.instance || typeof notice.watching !== 'boolean') return;
    let byInstance = this.remote.get(sn);
    if (notice.watching) {
      if (!byInstance) this.remote.set(sn, (byInstance = new Map()));
      byInstance.set(notice.from, Date.now() + 2.5 * WATCH_HEARTBEAT_MS);
    } else {
      byInstance?.delete(notice.from);
      if (byInstance?.size === 0) this.remote.delete(sn);
    }
  }

  /** Another instance's list of the devices it watches: each counts as watched there for 2.5 heartbeats. */
  private onList(payload: Buffer): void {
    let notice: { from?: unknown; sns?: unknown };
    try {
      notice = JSON.parse(payload.toString('utf8')) as typeof notice;
    } catch {
      return;
    }
    if (typeof notice.from !== 'string' || notice.from === this.instance || !Array.isArray(notice.sns)) return;
    const until = Date.now() + 2.5 * WATCH_HEARTBEAT_MS;
    for (const sn of notice.sns) {
      if (typeof sn !== 'string') continue;
      let byInstance = this.remote.get(sn);
      if (!byInstance) this.remote.set(sn, (byInstance = new Map()));
      byInstance.set(notice.from, until);
    }
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.heartbeat);
    for (const t of this.stopTimers.values()) clearTimeout(t);
    this.stopTimers.clear();
  }
}

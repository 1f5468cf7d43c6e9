import { LinkMethod } from '@nest/contracts';
import type { LinkLogger, LinkService } from '../link/service.js';

/**
 * Drone video on demand. A push socket that verified a device (200) watches it; the first watcher makes
 * the server ask the device to start its video (`video.start`) unless it is streaming already; when the
 * last watcher leaves, the video is stopped (`video.stop`) `idleStopMs` later unless someone came back.
 * Video also starts when a watched device comes (back) online. The device reports `streaming` in its
 * retained state; a successful command reply counts too.
 */
export class VideoOnDemand {
  private readonly watchers = new Map<string, Set<object>>();
  private readonly streaming = new Map<string, boolean>();
  private readonly starting = new Set<string>();
  private readonly stopTimers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly link: LinkService,
    private readonly log: LinkLogger,
    private readonly idleStopMs: number,
  ) {
    link.on('state', (sn, live) => {
      const s = live.state?.video?.streaming;
      if (typeof s === 'boolean') this.streaming.set(sn, s);
    });
    link.on('online', (sn, online) => {
      if (!online) {
        this.streaming.set(sn, false);
        return;
      }
      if ((this.watchers.get(sn)?.size ?? 0) > 0) this.ensureStarted(sn);
    });
  }

  isStreaming(sn: string): boolean {
    return this.streaming.get(sn) ?? false;
  }

  watcherCount(sn: string): number {
    return this.watchers.get(sn)?.size ?? 0;
  }

  watch(sn: string, watcher: object): void {
    let set = this.watchers.get(sn);
    if (!set) this.watchers.set(sn, (set = new Set()));
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
    if (this.stopped || this.stopTimers.has(sn)) return;
    const timer = setTimeout(() => {
      this.stopTimers.delete(sn);
      if (this.watcherCount(sn) > 0 || !this.link.isOnline(sn)) return;
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
        if (outcome.status === 'ok') this.streaming.set(sn, true);
        else this.log.info({ sn, outcome: outcome.status }, 'video.start not confirmed');
      })
      .finally(() => this.starting.delete(sn));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.stopTimers.values()) clearTimeout(t);
    this.stopTimers.clear();
  }
}

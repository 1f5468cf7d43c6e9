import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandOutcome } from '../link/adapter.js';
import { VideoOnDemand, WATCH_HEARTBEAT_MS, WATCH_NOTICE_TOPIC, type VideoLink } from './live.js';

class FakeLink extends EventEmitter {
  online = true;
  readonly commands: string[] = [];
  readonly notices: { topic: string; payload: { from: string; watching: boolean } }[] = [];
  isOnline = () => this.online;
  command = async (_sn: string, method: string): Promise<CommandOutcome> => {
    this.commands.push(method);
    return { status: 'ok', tid: 't', attempts: 1, reply: { result: 0 } };
  };
  publishInternal = (topic: string, payload: string) => {
    this.notices.push({ topic, payload: JSON.parse(payload) as { from: string; watching: boolean } });
  };
}

const log = { info: () => undefined, warn: () => undefined, debug: () => undefined };
let video: VideoOnDemand | null = null;
afterEach(() => {
  video?.stop();
  vi.useRealTimers();
});

function setup(idleStopMs = 1000) {
  vi.useFakeTimers();
  const link = new FakeLink();
  video = new VideoOnDemand(link as unknown as VideoLink, log, idleStopMs);
  return { link, video };
}

describe('video on demand', () => {
  it('starts once for the first watcher, stops idleStopMs after the last one left', async () => {
    const { link, video } = setup();
    const a = {};
    const b = {};
    video.watch('SN', a);
    video.watch('SN', b);
    await vi.advanceTimersByTimeAsync(0);
    expect(link.commands).toEqual(['video.start']);
    expect(video.isStreaming('SN')).toBe(true);
    video.unwatch('SN', a);
    await vi.advanceTimersByTimeAsync(2000);
    expect(link.commands).toEqual(['video.start']);
    video.unwatch('SN', b);
    await vi.advanceTimersByTimeAsync(999);
    expect(link.commands).toEqual(['video.start']);
    // Back within the idle time: nothing stops.
    video.watch('SN', a);
    video.unwatch('SN', a);
    await vi.advanceTimersByTimeAsync(1000);
    expect(link.commands).toEqual(['video.start', 'video.stop']);
    expect(video.isStreaming('SN')).toBe(false);
    expect(link.notices.map((n) => [n.topic, n.payload.watching])).toEqual([
      [`${WATCH_NOTICE_TOPIC}/SN`, true],
      [`${WATCH_NOTICE_TOPIC}/SN`, false],
      [`${WATCH_NOTICE_TOPIC}/SN`, true],
      [`${WATCH_NOTICE_TOPIC}/SN`, false],
    ]);
  });

  it('does not start for a device that streams already or is offline; starts when a watched device comes online', async () => {
    const { link, video } = setup();
    link.emit('state', 'SN', { state: { video: { streaming: true } } });
    video.watch('SN', {});
    link.online = false;
    video.watch('SN2', {});
    await vi.advanceTimersByTimeAsync(0);
    expect(link.commands).toEqual([]);
    link.online = true;
    link.emit('online', 'SN2', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(link.commands).toEqual(['video.start']);
  });

  it('keeps a video another instance watches, and repeats its own watch notices', async () => {
    const { link, video } = setup();
    const w = {};
    video.watch('SN', w);
    await vi.advanceTimersByTimeAsync(WATCH_HEARTBEAT_MS);
    expect(link.notices.filter((n) => n.payload.watching).length).toBe(2);
    link.emit('internal', `${WATCH_NOTICE_TOPIC}/SN`, Buffer.from(JSON.stringify({ from: 'other', watching: true })));
    video.unwatch('SN', w);
    await vi.advanceTimersByTimeAsync(5000);
    expect(link.commands).toEqual(['video.start']);
    expect(video.watchedElsewhere('SN')).toBe(true);
    link.emit('internal', `${WATCH_NOTICE_TOPIC}/SN`, Buffer.from(JSON.stringify({ from: 'other', watching: false })));
    await vi.advanceTimersByTimeAsync(1000);
    expect(link.commands).toEqual(['video.start', 'video.stop']);
  });

  it('forgets another instance that stopped repeating its notices', async () => {
    const { link, video } = setup();
    link.emit('internal', `${WATCH_NOTICE_TOPIC}/SN`, Buffer.from(JSON.stringify({ from: 'other', watching: true })));
    link.emit('internal', `${WATCH_NOTICE_TOPIC}/SN`, Buffer.from('not json'));
    expect(video.watchedElsewhere('SN')).toBe(true);
    await vi.advanceTimersByTimeAsync(2.5 * WATCH_HEARTBEAT_MS + 1);
    expect(video.watchedElsewhere('SN')).toBe(false);
  });
});

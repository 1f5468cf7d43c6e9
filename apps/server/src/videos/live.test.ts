import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandOutcome } from '../link/adapter.js';
import { VideoOnDemand, WATCH_HEARTBEAT_MS, WATCH_LIST_MAX, WATCH_LIST_TOPIC, WATCH_NOTICE_TOPIC, type VideoLink } from './live.js';

class FakeLink extends EventEmitter {
  online = true;
  readonly commands: string[] = [];
  readonly notices: { topic: string; payload: { from: string; watching?: boolean; sns?: string[] } }[] = [];
  isOnline = () => this.online;
  command = async (_sn: string, method: string): Promise<CommandOutcome> => {
    this.commands.push(method);
    return { status: 'ok', tid: 't', attempts: 1, reply: { result: 0 } };
  };
  publishInternal = (topic: string, payload: string) => {
    this.notices.push({ topic, payload: JSON.parse(payload) as { from: string; watching?: boolean; sns?: string[] } });
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
    // The watch notice, then the heartbeat's list.
    expect(link.notices.map((n) => [n.topic, n.payload.watching ?? n.payload.sns])).toEqual([
      [`${WATCH_NOTICE_TOPIC}/SN`, true],
      [WATCH_LIST_TOPIC, ['SN']],
    ]);
    link.emit('internal', `${WATCH_NOTICE_TOPIC}/SN`, Buffer.from(JSON.stringify({ from: 'other', watching: true })));
    video.unwatch('SN', w);
    await vi.advanceTimersByTimeAsync(5000);
    expect(link.commands).toEqual(['video.start']);
    expect(video.watchedElsewhere('SN')).toBe(true);
    link.emit('internal', `${WATCH_NOTICE_TOPIC}/SN`, Buffer.from(JSON.stringify({ from: 'other', watching: false })));
    await vi.advanceTimersByTimeAsync(1000);
    expect(link.commands).toEqual(['video.start', 'video.stop']);
  });

  it('lists every watched device in few heartbeat messages, and takes another instance\'s list as watched there', async () => {
    const { link, video } = setup();
    const count = WATCH_LIST_MAX + 5;
    for (let i = 0; i < count; i++) video.watch(`SN-${i}`, {});
    link.notices.length = 0;
    await vi.advanceTimersByTimeAsync(WATCH_HEARTBEAT_MS);
    expect(link.notices.map((n) => [n.topic, n.payload.sns?.length])).toEqual([
      [WATCH_LIST_TOPIC, WATCH_LIST_MAX],
      [WATCH_LIST_TOPIC, 5],
    ]);
    expect(new Set(link.notices.flatMap((n) => n.payload.sns ?? [])).size).toBe(count);
    // Its own list, read back from the broker, is not another instance's; garbage changes nothing.
    link.emit('internal', WATCH_LIST_TOPIC, Buffer.from(JSON.stringify(link.notices[0]!.payload)));
    link.emit('internal', WATCH_LIST_TOPIC, Buffer.from('{"from":"other","sns":"X"}'));
    link.emit('internal', WATCH_LIST_TOPIC, Buffer.from('not json'));
    expect(video.watchedElsewhere('X')).toBe(false);
    expect(video.watchedElsewhere('SN-0')).toBe(false);
    link.emit('internal', WATCH_LIST_TOPIC, Buffer.from(JSON.stringify({ from: 'other', sns: ['A', 'B', 7] })));
    expect(video.watchedElsewhere('A')).toBe(true);
    expect(video.watchedElsewhere('B')).toBe(true);
    await vi.advanceTimersByTimeAsync(2.5 * WATCH_HEARTBEAT_MS + 1);
    expect(video.watchedElsewhere('A')).toBe(false);
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

import { DjiMethod, DjiResult, LinkMethod } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { DjiLive, defaultVideoId, videoIdOf, type LiveIngest } from './live.js';

/** An ingest that hands out one keyed URL per device and records what was closed. */
function fakeIngest(): LiveIngest & { closed: string[]; open: (sn: string) => { rtmpUrl: string; playlist: string } } {
  const closed: string[] = [];
  return {
    closed,
    open: (sn) => ({ rtmpUrl: `rtmp://127.0.0.1:1935/live/${sn}?key=k-${sn}`, playlist: `/live/${sn}/index.m3u8` }),
    close: (sn) => void closed.push(sn),
  };
}

describe('DJI live video', () => {
  it('video.start sends live_start_push with the keyed RTMP URL and answers the playlist; video.stop stops that video and closes the slot', async () => {
    const ingest = fakeIngest();
    const live = new DjiLive(ingest);
    const sent: { method: string; data: Record<string, unknown> }[] = [];
    const send = (method: string, data: Record<string, unknown>) => {
      sent.push({ method, data });
      return Promise.resolve({ result: 0 });
    };
    const started = await live.command(LinkMethod.VIDEO_START, 'DOCK1', 'DRONE1', undefined, send);
    expect(started).toEqual({ status: 'ok', output: { url: '/live/DOCK1/index.m3u8' } });
    expect(sent[0]).toEqual({
      method: DjiMethod.LIVE_START_PUSH,
      data: { url_type: 1, url: 'rtmp://127.0.0.1:1935/live/DOCK1?key=k-DOCK1', video_id: 'DRONE1/80-0-0/normal-0', video_quality: 0 },
    });
    const stopped = await live.command(LinkMethod.VIDEO_STOP, 'DOCK1', 'DRONE1', undefined, send);
    expect(stopped.status).toBe('ok');
    expect(sent[1]).toEqual({ method: DjiMethod.LIVE_STOP_PUSH, data: { video_id: 'DRONE1/80-0-0/normal-0' } });
    expect(ingest.closed).toEqual(['DOCK1']);
  });

  it('a refused start closes the slot and says the DJI code; "already live" counts as started; no ingest refuses', async () => {
    const ingest = fakeIngest();
    const live = new DjiLive(ingest);
    const refused = await live.command(LinkMethod.VIDEO_START, 'D', 'U', undefined, () => Promise.resolve({ result: DjiResult.LIVE_NO_AIRCRAFT }));
    expect(refused).toMatchObject({ status: 'failed', code: DjiResult.LIVE_NO_AIRCRAFT });
    expect(ingest.closed).toEqual(['D']);
    expect((await live.command(LinkMethod.VIDEO_START, 'D', 'U', undefined, () => Promise.resolve({ result: DjiResult.ALREADY_LIVE }))).status).toBe('ok');
    expect(await live.command(LinkMethod.VIDEO_START, 'D', 'U', undefined, () => Promise.resolve(null))).toEqual({ status: 'timeout' });
    const none = await new DjiLive(null).command(LinkMethod.VIDEO_START, 'D', 'U', undefined, () => Promise.resolve({ result: 0 }));
    expect(none).toMatchObject({ status: 'failed', code: DjiResult.UNSUPPORTED });
  });

  it('the video id comes from the drone camera of live_capacity when the dock reports one', () => {
    const capacity = {
      available_video_number: 2,
      device_list: [
        { sn: 'DOCK1', camera_list: [{ camera_index: '165-0-7', video_list: [{ video_index: 'normal-0' }] }] },
        { sn: 'DRONE1', camera_list: [{ camera_index: '81-0-0', video_list: [{ video_index: 'wide-0' }] }] },
      ],
    };
    expect(videoIdOf('DRONE1', capacity)).toBe('DRONE1/81-0-0/wide-0');
    expect(videoIdOf('DRONE2', capacity)).toBe(defaultVideoId('DRONE2'));
    expect(videoIdOf('DRONE1', { device_list: 'x' })).toBe(defaultVideoId('DRONE1'));
  });
});

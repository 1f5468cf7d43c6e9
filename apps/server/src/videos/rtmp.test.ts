import { describe, expect, it } from 'vitest';
import { RtmpSlots } from './rtmp.js';

const keyOf = (url: string): string => new URL(url.replace(/^rtmp:/, 'http:')).searchParams.get('key') ?? '';

describe('live ingest slots', () => {
  it('hands out a keyed publish URL and the playlist path; only that key on that path is accepted', () => {
    const slots = new RtmpSlots({ publishBase: 'rtmp://192.0.2.10:1935', liveUrlBase: '/live' });
    const a = slots.open('DOCK-A');
    expect(a.rtmpUrl).toMatch(/^rtmp:\/\/192\.0\.2\.10:1935\/live\/DOCK-A\?key=[0-9a-f]{32}$/);
    expect(a.playlist).toBe('/live/DOCK-A/index.m3u8');
    expect(slots.open('DOCK-A')).toEqual(a);
    const b = slots.open('DOCK-B');
    expect(keyOf(b.rtmpUrl)).not.toBe(keyOf(a.rtmpUrl));

    expect(slots.accepts('/live/DOCK-A', keyOf(a.rtmpUrl))).toBe('DOCK-A');
    expect(slots.accepts('/live/DOCK-A', keyOf(b.rtmpUrl))).toBeNull();
    expect(slots.accepts('/live/DOCK-A', undefined)).toBeNull();
    expect(slots.accepts('/live/DOCK-A', `${keyOf(a.rtmpUrl)}0`)).toBeNull();
    expect(slots.accepts('/other/DOCK-A', keyOf(a.rtmpUrl))).toBeNull();
    expect(slots.accepts('/live/DOCK-C', keyOf(a.rtmpUrl))).toBeNull();
  });

  it('a closed slot forgets its key and says so; the next open issues a new one', () => {
    const closed: string[] = [];
    const slots = new RtmpSlots({ publishBase: 'rtmp://127.0.0.1:1935', liveUrlBase: '/live', onClose: (sn) => closed.push(sn) });
    const first = slots.open('D1');
    slots.close('D1');
    slots.close('D1');
    expect(closed).toEqual(['D1']);
    expect(slots.accepts('/live/D1', keyOf(first.rtmpUrl))).toBeNull();
    const second = slots.open('D1');
    expect(keyOf(second.rtmpUrl)).not.toBe(keyOf(first.rtmpUrl));
    expect(slots.accepts('/live/D1', keyOf(second.rtmpUrl))).toBe('D1');
  });
});

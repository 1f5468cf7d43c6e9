import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLang } from '../i18n';
import VideoPlayer, { OFF_TEXT, unavailableKey } from './VideoPlayer';
import { hlsEngine, retryDelay, videoKind, whepEndpoint } from './source';

describe('video source selection by url', () => {
  it.each([
    ['/live/SIM-ALONE-01/index.m3u8', 'hls'],
    ['https://cdn.example/live/a.m3u8?token=1', 'hls'],
    ['http://media/live/a.flv', 'flv'],
    ['ws://media/live/a', 'flv'],
    ['wss://media/live/a.flv?x=1', 'flv'],
    ['https://media/whep/stream1', 'whep'],
    ['https://media/rtc/v1/whep/?app=live&stream=a', 'whep'],
    ['https://media/live/a.whep', 'whep'],
    ['webrtc://media/live/a', 'whep'],
    ['/media/videos/rec.mp4', 'file'],
    ['', 'none'],
    ['   ', 'none'],
    [null, 'none'],
    [undefined, 'none'],
  ])('%s -> %s', (url, kind) => {
    expect(videoKind(url)).toBe(kind);
  });

  it('native HLS when the browser plays it, else hls.js on MSE', () => {
    expect(hlsEngine({ canPlayType: () => 'maybe' }, true)).toBe('native');
    expect(hlsEngine({ canPlayType: () => '' }, true)).toBe('hlsjs');
    expect(hlsEngine({ canPlayType: () => '' }, false)).toBe('none');
  });

  it('webrtc:// urls go over http(s); retries back off to 15 s', () => {
    expect(whepEndpoint('webrtc://h/live/a', 'https:')).toBe('https://h/live/a');
    expect(whepEndpoint('https://h/whep', 'http:')).toBe('https://h/whep');
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000, 15000]);
  });
});

describe('unavailable message', () => {
  beforeEach(() => {
    applyLang('en');
    // The test DOM (happy-dom) has no media: play() and load() are stubs.
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('picks the message for the reason', () => {
    expect(unavailableKey(false, null)).toBe('video.noUrl');
    expect(unavailableKey(true, 'notFound')).toBe('video.unavailable');
    expect(unavailableKey(true, 'unsupported')).toBe('video.unsupported');
  });

  it('says there is no stream when the url is empty', () => {
    render(<VideoPlayer url="" />);
    expect(screen.getByTestId('video-player').dataset.status).toBe('unavailable');
    expect(screen.getByTestId('video-player-message').textContent).toContain('This device has no video stream');
  });

  it('a 404 manifest shows the localised message, retries with backoff and recovers', async () => {
    vi.useFakeTimers();
    let up = false;
    const fetchMock = vi.fn(async () => new Response(up ? '#EXTM3U' : 'nope', { status: up ? 200 : 404 }));
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((t: string) => (t.includes('mpegurl') ? 'maybe' : ''));
    render(<VideoPlayer url="/live/X/index.m3u8" />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    const player = screen.getByTestId('video-player');
    expect(player.dataset.status).toBe('unavailable');
    expect(player.dataset.kind).toBe('hls');
    expect(screen.getByTestId('video-player-message').textContent).toContain('The video is unavailable right now');
    expect(screen.getByTestId('video-player-message').textContent).toMatch(/Retrying in 1 s/);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // Still down after the first retry: the next one waits 2 s.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    // The stream is back: the retry attaches it and "playing" clears the message.
    up = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    const video = screen.getByTestId('video-player-video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/live/X/index.m3u8');
    expect(video.muted).toBe(true);
    act(() => {
      video.dispatchEvent(new Event('playing'));
    });
    expect(player.dataset.status).toBe('playing');
    expect(screen.queryByTestId('video-player-message')).toBeNull();
    vi.unstubAllGlobals();
  });

  it('says why and stops retrying when the server answers that the video cannot be produced', async () => {
    vi.useFakeTimers();
    // The live route's answer for a device whose video.start said "no ffmpeg" (apps/server/src/videos/routes.ts).
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 40018, msg: 'No video: there is no ffmpeg on the server', data: { video: { available: false, reason: 'noFfmpeg' } } }), {
          status: 404,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((t: string) => (t.includes('mpegurl') ? 'maybe' : ''));
    render(<VideoPlayer url="/live/123.sig/X/index.m3u8" testId="live-video" />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    const player = screen.getByTestId('live-video');
    expect(player.dataset.status).toBe('unavailable');
    expect(player.dataset.off).toBe('noFfmpeg');
    const message = screen.getByTestId('live-video-message').textContent ?? '';
    expect(message).toContain(OFF_TEXT.noFfmpeg.en);
    expect(message).toContain('Not retrying');
    expect(message).not.toMatch(/Retrying in/);
    // No retry, however long the panel stays open.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(120_000);
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The same reason in Chinese.
    act(() => applyLang('zh'));
    expect(screen.getByTestId('live-video-message').textContent).toContain(OFF_TEXT.noFfmpeg.zh);
    expect(screen.getByTestId('live-video-message').textContent).toContain('不再自动重试');
    applyLang('en');
    vi.unstubAllGlobals();
  });
});

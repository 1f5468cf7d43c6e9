import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useI18n, type MessageKey } from '../i18n';
import { StreamUnavailable, attachStream, type Detach, type VideoOffReason } from './engines';
import { retryDelay, videoKind } from './source';
import './video.css';

export type PlayerStatus = 'loading' | 'playing' | 'unavailable';

export interface VideoPlayerProps {
  url: string | null | undefined;
  /** A live stream (retried forever, low latency) or a recording (controls, seeking). */
  live?: boolean;
  /** Muted by default so that autoplay is allowed. */
  muted?: boolean;
  controls?: boolean;
  className?: string;
  testId?: string;
}

/** The message shown over the video for a status and reason. */
export function unavailableKey(hasUrl: boolean, reason: StreamUnavailable['reason'] | null): MessageKey {
  if (!hasUrl) return 'video.noUrl';
  if (reason === 'unsupported') return 'video.unsupported';
  return 'video.unavailable';
}

/**
 * What the player says when the server says the video cannot be produced (kept here, beside the reasons
 * of engines.ts), and that it stopped retrying.
 */
export const OFF_TEXT: Readonly<Record<VideoOffReason, { zh: string; en: string }>> = {
  noFfmpeg: {
    zh: '无法生成视频：服务器上没有 ffmpeg（请安装 ffmpeg 或设置 FFMPEG_PATH，然后重启服务器）',
    en: 'No video: there is no ffmpeg on the server (install ffmpeg or set FFMPEG_PATH, then restart the server)',
  },
  ffmpegFailed: {
    zh: '无法生成视频：服务器上的 ffmpeg 运行失败（详见服务器日志）',
    en: 'No video: ffmpeg failed on the server (see the server log)',
  },
  unavailable: { zh: '设备无法提供视频', en: 'The device cannot provide video' },
};
export const NOT_RETRYING: Readonly<{ zh: string; en: string }> = { zh: '不再自动重试', en: 'Not retrying' };

/** Seconds of no progress after which a playing live stream counts as stalled and is reconnected. */
const STALL_SECONDS = 12;

/**
 * Plays HLS, FLV, WebRTC (WHEP) or a plain file, chosen by url (source.ts). Muted autoplay. When the
 * stream is unavailable (no url, network error, 404 manifest, media error, stall) it says so and retries
 * with backoff until it plays again; a new url starts over.
 */
export default function VideoPlayer({ url, live = true, muted = true, controls = false, className, testId = 'video-player' }: VideoPlayerProps): ReactNode {
  const { t, tx } = useI18n();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<PlayerStatus>('loading');
  const [reason, setReason] = useState<StreamUnavailable['reason'] | null>(null);
  const [off, setOff] = useState<VideoOffReason | null>(null);
  const [retryIn, setRetryIn] = useState<number | null>(null);
  const kind = videoKind(url);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (kind === 'none' || !url) {
      setStatus('unavailable');
      setReason(null);
      setOff(null);
      setRetryIn(null);
      return;
    }
    let disposed = false;
    let attempt = 0;
    let detach: Detach | null = null;
    let controller: AbortController | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | null = null;
    let countdown: ReturnType<typeof setInterval> | null = null;
    let lastTime = -1;
    let stalledChecks = 0;

    const stop = () => {
      controller?.abort();
      controller = null;
      detach?.();
      detach = null;
    };
    const fail = (err: unknown) => {
      if (disposed) return;
      stop();
      const r = err instanceof StreamUnavailable ? err.reason : 'network';
      setStatus('unavailable');
      setReason(r);
      setOff(err instanceof StreamUnavailable ? err.off : null);
      // Known to stay so (the browser cannot play it, the server cannot make it): no retry.
      if (r === 'unsupported' || r === 'off') return;
      const delay = retryDelay(attempt++);
      const until = Date.now() + delay;
      setRetryIn(Math.ceil(delay / 1000));
      if (countdown) clearInterval(countdown);
      countdown = setInterval(() => setRetryIn(Math.max(0, Math.ceil((until - Date.now()) / 1000))), 500);
      retryTimer = setTimeout(start, delay);
    };
    const start = () => {
      if (disposed) return;
      if (countdown) clearInterval(countdown);
      countdown = null;
      setRetryIn(null);
      setStatus('loading');
      controller = new AbortController();
      const signal = controller.signal;
      attachStream(kind, url, video, { live, signal, onFatal: fail })
        .then((d) => {
          if (disposed || signal.aborted) {
            d();
            return;
          }
          detach = d;
          video.muted = muted;
          void video.play().catch(() => undefined);
        })
        .catch((err: unknown) => {
          if (!signal.aborted) fail(err);
        });
    };

    const onPlaying = () => {
      attempt = 0;
      stalledChecks = 0;
      setStatus('playing');
      setReason(null);
      setOff(null);
    };
    const onError = () => fail(new StreamUnavailable('media'));
    const onEnded = () => {
      if (live) fail(new StreamUnavailable('network'));
    };
    video.addEventListener('playing', onPlaying);
    video.addEventListener('error', onError);
    video.addEventListener('ended', onEnded);
    // A live stream whose time stops moving is reconnected.
    const watchdog = setInterval(() => {
      if (!live || video.paused || !detach) return;
      if (video.currentTime === lastTime) {
        stalledChecks += 1;
        if (stalledChecks * 3 >= STALL_SECONDS) fail(new StreamUnavailable('network'));
      } else stalledChecks = 0;
      lastTime = video.currentTime;
    }, 3000);

    start();
    return () => {
      disposed = true;
      clearInterval(watchdog);
      if (retryTimer) clearTimeout(retryTimer);
      if (countdown) clearInterval(countdown);
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('error', onError);
      video.removeEventListener('ended', onEnded);
      stop();
    };
  }, [url, kind, live, muted]);

  const message = status !== 'unavailable' ? null : off ? tx(OFF_TEXT[off]) : t(unavailableKey(kind !== 'none', reason));
  return (
    <div className={`video-player${className ? ` ${className}` : ''}`} data-testid={testId} data-status={status} data-kind={kind} data-off={off ?? undefined}>
      <video ref={videoRef} muted={muted} autoPlay playsInline controls={controls} data-testid={`${testId}-video`} />
      {status === 'loading' && (
        <div className="video-player-overlay center-overlay" data-testid={`${testId}-loading`}>
          <i className="video-player-spinner" />
          <span>{t('video.loading')}</span>
        </div>
      )}
      {message && (
        <div className="video-player-overlay center-overlay is-unavailable" data-testid={`${testId}-message`} role="status">
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M3 7h12v10H3zM15 10l6-3v10l-6-3M2 2l20 20" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
          </svg>
          <span>{message}</span>
          {retryIn !== null && <small>{t('video.retrying', { seconds: retryIn })}</small>}
          {off && <small data-testid={`${testId}-not-retrying`}>{tx(NOT_RETRYING)}</small>}
        </div>
      )}
    </div>
  );
}

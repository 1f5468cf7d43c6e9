/** How a video url is played. */
export type VideoKind = 'none' | 'hls' | 'flv' | 'whep' | 'file';

/**
 * The player for a url: WebRTC WHEP (`webrtc://`, `.../whep`, `*.whep`), HLS (`.m3u8`), FLV (`.flv`,
 * or a ws:// / wss:// stream), plain files (`.mp4`, `.webm`, `.mov`, `.m4v`); anything else is tried as a
 * file by the browser. No url (null, empty) means no video.
 */
export function videoKind(url: string | null | undefined): VideoKind {
  const u = (url ?? '').trim();
  if (!u) return 'none';
  const lower = u.toLowerCase();
  const path = lower.split(/[?#]/)[0] ?? '';
  if (lower.startsWith('webrtc://') || /\/whep(\/|$)/.test(path) || path.endsWith('.whep')) return 'whep';
  if (path.endsWith('.m3u8')) return 'hls';
  if (path.endsWith('.flv') || lower.startsWith('ws://') || lower.startsWith('wss://')) return 'flv';
  return 'file';
}

export type HlsEngine = 'native' | 'hlsjs' | 'none';

/** Native HLS when the browser plays it (Safari, recent Chrome), else hls.js over Media Source Extensions. */
export function hlsEngine(video: Pick<HTMLVideoElement, 'canPlayType'>, mse: boolean): HlsEngine {
  if (video.canPlayType('application/vnd.apple.mpegurl') !== '') return 'native';
  return mse ? 'hlsjs' : 'none';
}

/** `webrtc://host/app/stream` -> `https://host/app/stream/whep` is not standard: such urls are used as is over http(s). */
export function whepEndpoint(url: string, protocol: string = globalThis.location?.protocol ?? 'http:'): string {
  return url.toLowerCase().startsWith('webrtc://') ? `${protocol}//${url.slice('webrtc://'.length)}` : url;
}

/** Retry delay after `attempt` failures: 1 s doubling to 15 s. */
export function retryDelay(attempt: number): number {
  return Math.min(15_000, 1000 * 2 ** Math.max(0, Math.min(attempt, 10)));
}

import { hlsEngine, whepEndpoint, type VideoKind } from './source';

/** Stops what an engine started. */
export type Detach = () => void;
/**
 * Why the server says a live video cannot be produced (apps/server/src/videos/live.ts): no ffmpeg there,
 * ffmpeg failed there, or the device refused. Retrying will not help until someone fixes it.
 */
export type VideoOffReason = 'noFfmpeg' | 'ffmpegFailed' | 'unavailable';
const OFF_REASONS: readonly string[] = ['noFfmpeg', 'ffmpegFailed', 'unavailable'];

export class StreamUnavailable extends Error {
  constructor(
    readonly reason: 'notFound' | 'network' | 'unsupported' | 'media' | 'off',
    /** With reason 'off': what the server said. */
    readonly off: VideoOffReason | null = null,
  ) {
    super(off ? `${reason}: ${off}` : reason);
    this.name = 'StreamUnavailable';
  }
}

/** The reason in a refused playlist's envelope (`data.video: {available: false, reason}`), or null. */
export async function offReasonOf(res: Response): Promise<VideoOffReason | null> {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return null;
  try {
    const body = (await res.json()) as { data?: { video?: { available?: unknown; reason?: unknown } } | null };
    const video = body.data?.video;
    return video?.available === false && typeof video.reason === 'string' && OFF_REASONS.includes(video.reason) ? (video.reason as VideoOffReason) : null;
  } catch {
    return null;
  }
}

const mseSupported = (): boolean => typeof (globalThis as { MediaSource?: unknown }).MediaSource !== 'undefined';

/** A manifest that is not there (404, network error) is reported before the media element tries it. */
async function probe(url: string, signal: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { cache: 'no-store', signal, credentials: 'same-origin' });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new StreamUnavailable('network');
  }
  if (!res.ok) {
    const off = await offReasonOf(res);
    if (off) throw new StreamUnavailable('off', off);
    throw new StreamUnavailable(res.status === 404 ? 'notFound' : 'network');
  }
  await res.body?.cancel().catch(() => undefined);
}

function waitIceGathering(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function done() {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', check);
      resolve();
    }
    function check() {
      if (pc.iceGatheringState === 'complete') done();
    }
    pc.addEventListener('icegatheringstatechange', check);
  });
}

/**
 * Attaches a stream to a video element with the engine its kind needs (hls.js and mpegts.js are loaded
 * only when used). Resolves once loading started; `onFatal` reports a failure after that.
 */
export async function attachStream(
  kind: VideoKind,
  url: string,
  video: HTMLVideoElement,
  opts: { live: boolean; signal: AbortSignal; onFatal: (err: StreamUnavailable) => void },
): Promise<Detach> {
  const { signal, onFatal } = opts;
  switch (kind) {
    case 'hls': {
      await probe(url, signal);
      const engine = hlsEngine(video, mseSupported());
      if (engine === 'native') {
        video.src = url;
        return () => {
          video.removeAttribute('src');
          video.load();
        };
      }
      if (engine === 'none') throw new StreamUnavailable('unsupported');
      const { default: Hls } = await import('hls.js');
      if (!Hls.isSupported()) throw new StreamUnavailable('unsupported');
      const hls = new Hls({ lowLatencyMode: opts.live, manifestLoadingMaxRetry: 1, levelLoadingMaxRetry: 2 });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) onFatal(new StreamUnavailable(data.type === Hls.ErrorTypes.NETWORK_ERROR ? 'network' : 'media'));
      });
      hls.loadSource(url);
      hls.attachMedia(video);
      return () => hls.destroy();
    }
    case 'flv': {
      const { default: mpegts } = await import('mpegts.js');
      if (!mpegts.isSupported()) throw new StreamUnavailable('unsupported');
      const player = mpegts.createPlayer({ type: 'flv', isLive: opts.live, url }, { enableWorker: false, lazyLoad: false });
      player.on(mpegts.Events.ERROR, (type: string) => onFatal(new StreamUnavailable(type === mpegts.ErrorTypes.NETWORK_ERROR ? 'network' : 'media')));
      player.attachMediaElement(video);
      player.load();
      return () => {
        player.pause();
        player.unload();
        player.detachMediaElement();
        player.destroy();
      };
    }
    case 'whep': {
      if (typeof RTCPeerConnection === 'undefined') throw new StreamUnavailable('unsupported');
      const endpoint = whepEndpoint(url);
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      pc.addTransceiver('audio', { direction: 'recvonly' });
      const stream = new MediaStream();
      pc.ontrack = (e) => {
        stream.addTrack(e.track);
        video.srcObject = stream;
      };
      let resource: string | null = null;
      const detach = () => {
        pc.close();
        video.srcObject = null;
        if (resource) void fetch(new URL(resource, new URL(endpoint, globalThis.location?.href)).href, { method: 'DELETE' }).catch(() => undefined);
      };
      try {
        await pc.setLocalDescription(await pc.createOffer());
        await waitIceGathering(pc, 2000);
        let res: Response;
        try {
          res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: pc.localDescription?.sdp ?? '', signal });
        } catch (err) {
          if (signal.aborted) throw err;
          throw new StreamUnavailable('network');
        }
        if (!res.ok) throw new StreamUnavailable(res.status === 404 ? 'notFound' : 'network');
        resource = res.headers.get('location');
        await pc.setRemoteDescription({ type: 'answer', sdp: await res.text() });
      } catch (err) {
        detach();
        throw err;
      }
      pc.onconnectionstatechange = () => {
        if (pc.connectionState === 'failed' || pc.connectionState === 'closed' || pc.connectionState === 'disconnected') onFatal(new StreamUnavailable('network'));
      };
      return detach;
    }
    case 'file':
      video.src = url;
      return () => {
        video.removeAttribute('src');
        video.load();
      };
    default:
      throw new StreamUnavailable('notFound');
  }
}

import { parentPort } from 'node:worker_threads';
import { makePanorama, makePhoto } from './images.js';

/** Renders photos and panoramas off the main thread (see render-pool.ts). */
parentPort?.on('message', (m: { id: number; kind: 'photo' | 'panorama'; at: Parameters<typeof makePhoto>[0] }) => {
  try {
    const body = m.kind === 'photo' ? makePhoto(m.at) : makePanorama(m.at);
    const copy = new Uint8Array(body.byteLength);
    copy.set(body);
    parentPort?.postMessage({ id: m.id, body: copy }, [copy.buffer]);
  } catch (err) {
    parentPort?.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});

import { Worker } from 'node:worker_threads';
import { makePanorama, makePhoto } from './images.js';

type At = Parameters<typeof makePhoto>[0];

/**
 * JPEG encoding in JavaScript takes a few hundred milliseconds per picture. The simulator usually runs
 * inside the server process (`npm start`), so pictures are rendered in one worker thread to keep the
 * server's event loop free. Where the worker cannot start it falls back to rendering inline, for good.
 */
export class RenderPool {
  private worker: Worker | null = null;
  private broken = false;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

  render(kind: 'photo' | 'panorama', at: At): Promise<Buffer> {
    const inline = () => (kind === 'photo' ? makePhoto(at) : makePanorama(at));
    const w = this.ensure();
    if (!w) return Promise.resolve(inline());
    const id = this.next++;
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage({ id, kind, at });
    }).catch(() => inline());
  }

  private ensure(): Worker | null {
    if (this.broken) return null;
    if (this.worker) return this.worker;
    const here = import.meta.url;
    try {
      let w: Worker;
      if (here.endsWith('.ts')) {
        // Run from TypeScript sources (tsx): workers do not inherit the loader, so the worker registers it.
        const api = import.meta.resolve('tsx/esm/api');
        const file = new URL('./render-worker.ts', here).href;
        w = new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); })`, { eval: true });
      } else {
        w = new Worker(new URL('./render-worker.js', here));
      }
      w.unref();
      w.on('message', (m: { id: number; body?: Uint8Array; error?: string }) => {
        const p = this.waiting.get(m.id);
        if (!p) return;
        this.waiting.delete(m.id);
        if (m.body) p.resolve(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength));
        else p.reject(new Error(m.error ?? 'render failed'));
      });
      w.on('error', () => this.fail());
      w.on('exit', () => {
        if (this.worker === w) this.fail();
      });
      this.worker = w;
      return w;
    } catch {
      this.broken = true;
      return null;
    }
  }

  /** The worker died or never loaded: render what it owed inline, and everything after. */
  private fail(): void {
    this.broken = true;
    this.worker = null;
    const owed = [...this.waiting.values()];
    this.waiting.clear();
    for (const p of owed) p.reject(new Error('render worker unavailable'));
  }

  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.broken = true;
    if (w) await w.terminate();
  }
}

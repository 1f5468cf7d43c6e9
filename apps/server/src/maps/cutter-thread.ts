import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../threads.js';

export type TileCoord = readonly [z: number, x: number, y: number];

/**
 * The offline basemap's tile cutter in a worker thread (cut-worker.ts). Building the tile index takes 1-2 s
 * of CPU and about 23 MB, and a deep tile can take a few hundred milliseconds: on the main thread that would
 * hold up every device message and call meanwhile. The thread starts with the first cut and ends
 * `idleMs` after its last answer, so a server that only serves stored tiles carries none of it.
 *
 * Batches are answered in the order asked (one thread, one index). A thread that fails or exits fails the
 * batches it owed; the next cut starts a new one.
 */
export class CutterThread {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (tiles: (Buffer | null)[]) => void; reject: (err: Error) => void }>();
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly idleMs: number) {}

  /** Whether the thread (and so the index) is there now. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** The gzip'd PBF of each tile (null: empty), in the order given. */
  cut(tiles: readonly TileCoord[]): Promise<(Buffer | null)[]> {
    if (tiles.length === 0) return Promise.resolve([]);
    if (this.closed) return Promise.reject(new Error('the basemap is closed'));
    const worker = this.start();
    const id = this.next++;
    this.idleTimer?.refresh();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, tiles });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = moduleWorker(import.meta.url, './cut-worker');
    worker.unref();
    worker.on('message', (m: { id: number; tiles?: (Uint8Array | null)[]; error?: string }) => {
      const owed = this.waiting.get(m.id);
      if (!owed) return;
      this.waiting.delete(m.id);
      if (m.tiles) owed.resolve(m.tiles.map((t) => (t ? Buffer.from(t.buffer, t.byteOffset, t.byteLength) : null)));
      else owed.reject(new Error(m.error ?? 'cutting failed'));
      this.idleTimer?.refresh();
    });
    const gone = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.stopIdleTimer();
      const owed = [...this.waiting.values()];
      this.waiting.clear();
      for (const p of owed) p.reject(err);
    };
    worker.on('error', (err) => gone(err));
    worker.on('exit', (code) => gone(new Error(`the tile cutting thread exited (${code})`)));
    this.worker = worker;
    this.idleTimer = setTimeout(() => this.idle(), this.idleMs);
    this.idleTimer.unref();
    return worker;
  }

  /** The idle time passed: ends the thread unless a batch is still owed (then waits another idle time). */
  private idle(): void {
    if (this.waiting.size > 0) this.idleTimer?.refresh();
    else void this.end();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Ends the thread now (batches owed fail); the next cut starts a new one. */
  async end(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    this.stopIdleTimer();
    const owed = [...this.waiting.values()];
    this.waiting.clear();
    for (const p of owed) p.reject(new Error('the tile cutting thread was ended'));
    await worker.terminate();
  }

  /** Ends the thread for good. */
  async close(): Promise<void> {
    this.closed = true;
    await this.end();
  }
}

/**
 * Telemetry waiting to be read, the newest message per topic (one topic per device): latest wins.
 *
 * Telemetry is a device's current position and readings, sent again every period: a message superseded by
 * a newer one of the same device before it was read is worth nothing. A message is read at once while
 * nothing waits and the current turn of the event loop has not spent `sliceMs` reading telemetry yet (a
 * server that keeps up reads as it arrives, with no extra hop). Beyond that, messages are taken in (a map
 * write, nothing parsed) and read in slices of at most `sliceMs` on later turns, so a server that falls
 * behind (a backlog on its telemetry connection, a loaded machine) keeps its turns short: the acknowledged
 * traffic on its other connection and the browsers' sockets are served between slices, and what waits is
 * at most one message per device, the newest. Nothing is dropped while the server keeps up: a device's
 * next message finds its previous one read already. Only telemetry goes through it; events, replies,
 * state and presence are never dropped.
 *
 * Order: devices are read in the order their oldest waiting message arrived (a superseding message keeps
 * its device's place, so a busy fleet cannot starve a device); `after()` runs once everything taken in
 * before it has been read, which the presence probe needs (silence judged against what was read).
 */
export class LatestWins {
  private readonly waiting = new Map<string, { payload: Buffer; seq: number }>();
  /** Arrival number of the newest device entry (a superseding message keeps its device's number). */
  private seq = 0;
  /** Callbacks of after(), each with the arrival number it waits for, oldest first. */
  private readonly barriers: { seq: number; done: () => void }[] = [];
  private scheduled: NodeJS.Immediate | null = null;

  /**
   * `read` gets every message that was not superseded; `counts.superseded` counts those replaced by a newer
   * one of the same topic before they were read.
   */
  constructor(
    private readonly read: (topic: string, payload: Buffer) => void,
    readonly counts: { superseded: number } = { superseded: 0 },
    private readonly sliceMs = LATEST_WINS_SLICE_MS,
  ) {}

  /** Messages waiting (one per topic at most). */
  get size(): number {
    return this.waiting.size;
  }

  /** Reading time spent at once (in offer()) during this turn of the event loop, ms. */
  private spent = 0;
  private resetQueued = false;
  private readonly reset = (): void => {
    this.spent = 0;
    this.resetQueued = false;
  };

  /**
   * Takes a message in. While nothing waits and this turn has not read sliceMs yet, it is read at once;
   * otherwise it waits, replacing the one of the same topic still waiting, if any.
   */
  offer(topic: string, payload: Buffer): void {
    if (this.waiting.size === 0 && this.spent < this.sliceMs) {
      const t0 = performance.now();
      this.read(topic, payload);
      this.spent += performance.now() - t0;
      if (!this.resetQueued) {
        this.resetQueued = true;
        setImmediate(this.reset);
      }
      return;
    }
    const w = this.waiting.get(topic);
    if (w) {
      w.payload = payload;
      this.counts.superseded++;
      return;
    }
    this.waiting.set(topic, { payload, seq: ++this.seq });
    this.scheduled ??= setImmediate(this.drain);
  }

  /** Calls `done` once every message taken in so far has been read (at once when none waits). */
  after(done: () => void): void {
    if (this.waiting.size === 0) return done();
    this.barriers.push({ seq: this.seq, done });
  }

  /** Forgets what waits (the link stopped); pending after() callbacks are not called. */
  clear(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    this.waiting.clear();
    this.barriers.length = 0;
  }

  /** Reads waiting messages, oldest first, for at most sliceMs; the rest on the next turn. */
  private readonly drain = (): void => {
    this.scheduled = null;
    const end = performance.now() + this.sliceMs;
    for (const [topic, w] of this.waiting) {
      this.release(w.seq);
      this.waiting.delete(topic);
      this.read(topic, w.payload);
      // A clock read (tens of nanoseconds) after every message (tens of microseconds).
      if (performance.now() >= end) break;
    }
    if (this.waiting.size > 0) this.scheduled = setImmediate(this.drain);
    else this.release(Infinity);
  };

  /** Runs the after() callbacks waiting for nothing older than arrival number `next`. */
  private release(next: number): void {
    while (this.barriers.length > 0 && this.barriers[0]!.seq < next) this.barriers.shift()!.done();
  }
}

/**
 * The longest slice of telemetry read in one turn of the event loop: short enough that the other
 * connection's events and the browsers' sockets wait little, long enough that the turn's own costs stay small.
 */
export const LATEST_WINS_SLICE_MS = 10;

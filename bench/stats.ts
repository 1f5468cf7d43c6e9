/**
 * Pure measuring helpers of the fleet benches (fleet-push.ts, fleet-soak.ts): latency histograms of
 * constant size (a 10-minute soak records millions of samples), a least-squares slope for memory growth,
 * the comparison of a device's last state with the server's, reading push frames without parsing them,
 * and the generated-block splice of docs/performance.md.
 */

/**
 * Whole-millisecond histogram: record() rounds to the nearest ms (negative values count as 0); values at
 * or above `capMs` share the last bucket but still set the maximum. Percentiles are exact below the cap.
 */
export class Histogram {
  private readonly buckets: Uint32Array;
  count = 0;
  max = -Infinity;

  constructor(readonly capMs = 120_000) {
    this.buckets = new Uint32Array(capMs + 1);
  }

  record(ms: number): void {
    if (!Number.isFinite(ms)) return;
    const v = Math.max(0, Math.round(ms));
    this.buckets[Math.min(v, this.capMs)]!++;
    this.count++;
    if (v > this.max) this.max = v;
  }

  /** Adds another histogram of the same cap (results from several sockets or processes). */
  merge(other: Histogram | HistogramData): void {
    const b = other instanceof Histogram ? other.buckets : Uint32Array.from(other.buckets);
    if (b.length !== this.buckets.length) throw new Error('histograms of different caps');
    for (let i = 0; i < b.length; i++) this.buckets[i]! += b[i]!;
    this.count += other.count;
    this.max = Math.max(this.max, other.max);
  }

  /** The smallest value with at least q % of the samples at or below it (nearest rank); NaN when empty. */
  percentile(q: number): number {
    if (this.count === 0) return NaN;
    const rank = Math.min(this.count, Math.max(1, Math.ceil((q / 100) * this.count)));
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return i === this.capMs ? this.max : i;
    }
    return this.max;
  }

  /** "p50 / p90 / p99 / max" in ms, or an en dash when empty. */
  summary(): string {
    if (this.count === 0) return '–';
    return `${this.percentile(50)} / ${this.percentile(90)} / ${this.percentile(99)} / ${this.max}`;
  }

  /** Plain data for IPC (structured clone keeps the typed array). */
  toData(): HistogramData {
    return { capMs: this.capMs, buckets: this.buckets, count: this.count, max: this.max };
  }

  static from(data: HistogramData): Histogram {
    const h = new Histogram(data.capMs);
    h.merge(data);
    return h;
  }
}

export interface HistogramData {
  capMs: number;
  buckets: Uint32Array | number[];
  count: number;
  max: number;
}

/** Least-squares slope of y over x (units of y per unit of x); NaN with fewer than two distinct x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  let sx = 0;
  let sy = 0;
  for (const p of points) {
    sx += p.x;
    sy += p.y;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

/**
 * Puts `section` (which starts with `begin` and ends with `end`) in place of the block between those
 * markers, or appends it when the document has no such block yet.
 */
export function replaceBlock(doc: string, begin: string, end: string, section: string): string {
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end, i);
  return i >= 0 && j > i ? doc.slice(0, i) + section + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${section}\n`;
}

/** Canonical JSON (keys sorted at every level): what a device sent and what the server holds compare equal. */
export const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );

/** Whether the server holds every field of the state a device last sent, as sent (key order aside; fields it adds do not matter). */
export function holds(sent: unknown, held: unknown): boolean {
  if (held === null || held === undefined || sent === null || typeof sent !== 'object') return false;
  return Object.entries(sent as Record<string, unknown>).every(([k, v]) => canon(v) === canon((held as Record<string, unknown>)[k]));
}

/** The msg_id of a push frame, read from its text (its head is enough) without parsing it; -1 when absent. */
export function msgIdOf(text: string): number {
  const i = text.indexOf('"msg_id":');
  if (i < 0) return -1;
  const n = parseInt(text.slice(i + 9, i + 15), 10);
  return Number.isNaN(n) ? -1 : n;
}

/** The first `sn_id` in a frame's text without parsing it; null when absent or cut off. */
export function snOf(text: string): string | null {
  const i = text.indexOf('"sn_id":"');
  if (i < 0) return null;
  const j = text.indexOf('"', i + 9);
  return j < 0 ? null : text.slice(i + 9, j);
}

/** How often `needle` occurs in `buf` (a 310 batch's entries, counted on the bytes: no string, no parse). */
export function occurrences(buf: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(needle); i >= 0; i = buf.indexOf(needle, i + needle.length)) n++;
  return n;
}

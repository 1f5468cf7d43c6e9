import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SERVICE_BASES, ResultCode, demoText, toLang } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import * as fontkit from 'fontkit';
import { PbfWriter } from 'pbf';
import { envelope } from '../calls/errors.js';
import { placeCharacters } from './places.js';

/**
 * Text glyphs of the offline basemap, in MapLibre's glyph format: one PBF per range of 256 code points
 * (`{start}-{end}.pbf`), holding for each character a signed distance field (SDF) bitmap at 24 px with a
 * 3 px border, and its metrics. Drawn from Noto Sans SC (npm `@fontsource-variable/noto-sans-sc`, SIL
 * OFL 1.1: Latin and Chinese in one design), read with fontkit at weight 400.
 *
 * Two sets. The basemap's: all of Latin-1 (0-255) and the characters of the basemap's place names and of
 * the demo's zone names, drawn at build time (about 1.5k glyphs). The whole font (`?set=all`, the styles of
 * uploaded map packages, whose labels can be any text): each range drawn on its first request, in batches
 * that yield to the event loop, and cached. A range of the basemap set with none of its characters is answered as a valid empty PBF
 * (MapLibre draws nothing for those characters and logs no error).
 *
 * Where the files come from, first found:
 *   1. BUILT_DIR (apps/server/dist/glyphs/v{GLYPHS_VERSION}), written by `npm run build`
 *      (scripts/build-server.mjs runs `buildGlyphs`);
 *   2. DATA_DIR/glyphs/v{GLYPHS_VERSION}, a cache filled here on the first request of each range when the
 *      server runs without a build (from source, tests): about 0.1-0.5 s per range, once.
 */

export const GLYPH_FONTSTACK = 'Noto Sans Regular';
/** Bump when the font, the characters or the drawing change: files of other versions are not read. */
export const GLYPHS_VERSION = '2';
export const GLYPHS_PREFIX = `${DEFAULT_SERVICE_BASES.zone}/tiles/glyphs`;
export const GLYPHS_URL_TEMPLATE = `${GLYPHS_PREFIX}/{fontstack}/{range}.pbf`;
/** `?set=all`: every character of the font, not only the basemap's (styles whose labels can hold any text). */
export const WHOLE_SET = 'all';
const WHOLE_SET_DIR = 'all';
export const GLYPHS_WHOLE_URL_TEMPLATE = `${GLYPHS_URL_TEMPLATE}?set=${WHOLE_SET}`;
/** Glyphs change only with a new build: a week in caches. */
const GLYPH_CACHE_CONTROL = 'public, max-age=604800';

const FONT_SIZE = 24;
const BORDER = 3;
/** SDF radius and cutoff as MapLibre's TinySDF and fontnik draw them (the edge at 192 of 255). */
const RADIUS = 8;
const CUTOFF = 0.25;
/** Baseline to MapLibre's glyph origin, in px: the offset its own TinySDF glyphs get (27.5), rounded. */
const TOP_OFFSET = 27;
const MAX_CODE_POINT = 0xffff;

export const BUILT_DIR = fileURLToPath(new URL(`../../dist/glyphs/v${GLYPHS_VERSION}`, import.meta.url));
export const glyphCacheDir = (dataDir: string): string => path.join(dataDir, 'glyphs', `v${GLYPHS_VERSION}`);

/** `{start}-{end}.pbf` of a range: start a multiple of 256 up to 65280, end = start + 255; plain decimals. */
const RANGE_FILE = /^(0|[1-9][0-9]{2,4})-([1-9][0-9]{2,4})\.pbf$/;

/** The start of a valid range file name, or null. */
export function parseRange(file: string): number | null {
  const m = RANGE_FILE.exec(file);
  if (!m) return null;
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (start % 256 !== 0 || end !== start + 255 || end > MAX_CODE_POINT) return null;
  return start;
}

export const rangeFile = (start: number): string => `${start}-${start + 255}.pbf`;

/** Every character the generated glyphs cover: Latin-1, the place names, the demo zone names. */
export function glyphCharacters(): Set<number> {
  const chars = placeCharacters();
  for (let c = 0x20; c <= 0xff; c++) chars.add(c);
  // The demo objects' names (demo/plans.ts names them with these contracts texts, stored in Chinese).
  const label = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  for (const name of (['plan.fence', 'plan.patrol', 'plan.survey'] as const).map((key) => demoText(key, { label }))) {
    for (const c of name) chars.add(c.codePointAt(0)!);
  }
  for (const c of [...chars]) if (c > MAX_CODE_POINT || c < 0x20) chars.delete(c);
  return chars;
}

// ---- Font ---------------------------------------------------------------------------------------

interface Glyph {
  advanceWidth: number;
  path: { commands: { command: string; args: number[] }[] };
}
interface Font {
  unitsPerEm: number;
  variationCoords: number[] | null;
  hasGlyphForCodePoint(cp: number): boolean;
  glyphForCodePoint(cp: number): Glyph;
}

let fonts: Font[] | null = null;

/** The font's subset files (fontsource splits Noto Sans SC by Unicode range), Latin ones first. */
function loadFonts(): Font[] {
  if (fonts) return fonts;
  const require = createRequire(import.meta.url);
  const dir = path.join(path.dirname(require.resolve('@fontsource-variable/noto-sans-sc/package.json')), 'files');
  const files = readdirSync(dir).filter((f) => f.endsWith('-wght-normal.woff2'));
  files.sort((a, b) => Number(/\d+-wght/.test(a)) - Number(/\d+-wght/.test(b)) || a.localeCompare(b));
  fonts = files.map((f) => {
    const created = fontkit.create(readFileSync(path.join(dir, f)));
    if ('fonts' in created) throw new Error(`${f} is a font collection, not one font`);
    // The variable font's default is weight 100; its `getVariation` loses the WOFF2 tables, so the
    // coordinates (a field fontkit's types leave out) are set on the font itself before any glyph is read.
    const font: Font = Object.assign(created, { variationCoords: [400] });
    return font;
  });
  return fonts;
}

// ---- SDF ----------------------------------------------------------------------------------------

type Segment = [x0: number, y0: number, x1: number, y1: number];

/** The outline as straight segments in px (y up), curves flattened to about a tenth of a pixel. */
function outline(glyph: Glyph, scale: number): Segment[] {
  const segments: Segment[] = [];
  let sx = 0;
  let sy = 0;
  let x = 0;
  let y = 0;
  const lineTo = (nx: number, ny: number) => {
    if (nx !== x || ny !== y) segments.push([x, y, nx, ny]);
    x = nx;
    y = ny;
  };
  const steps = (len: number) => Math.max(2, Math.min(16, Math.ceil(Math.sqrt(len) * 1.5)));
  for (const { command, args } of glyph.path.commands) {
    const a = args.map((v) => v * scale);
    if (command === 'moveTo') {
      if (x !== sx || y !== sy) lineTo(sx, sy);
      x = sx = a[0]!;
      y = sy = a[1]!;
    } else if (command === 'lineTo') {
      lineTo(a[0]!, a[1]!);
    } else if (command === 'quadraticCurveTo') {
      const [cx, cy, ex, ey] = a as [number, number, number, number];
      const x0 = x;
      const y0 = y;
      const n = steps(Math.hypot(cx - x0, cy - y0) + Math.hypot(ex - cx, ey - cy));
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        lineTo(u * u * x0 + 2 * u * t * cx + t * t * ex, u * u * y0 + 2 * u * t * cy + t * t * ey);
      }
    } else if (command === 'bezierCurveTo') {
      const [c1x, c1y, c2x, c2y, ex, ey] = a as [number, number, number, number, number, number];
      const x0 = x;
      const y0 = y;
      const n = steps(Math.hypot(c1x - x0, c1y - y0) + Math.hypot(c2x - c1x, c2y - c1y) + Math.hypot(ex - c2x, ey - c2y));
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        lineTo(
          u * u * u * x0 + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * ex,
          u * u * u * y0 + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * ey,
        );
      }
    } else if (command === 'closePath') {
      lineTo(sx, sy);
    }
  }
  if (x !== sx || y !== sy) lineTo(sx, sy);
  return segments;
}

export interface GlyphBitmap {
  id: number;
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/**
 * One glyph as MapLibre expects it: the SDF over the glyph's pixel box plus BORDER on each side, byte
 * 255 - 255 * (d / RADIUS + CUTOFF) with d the distance to the outline in px, negative inside (nonzero
 * winding). Distances are exact (to the flattened outline), computed at each pixel centre.
 */
export function drawGlyph(id: number, glyph: Glyph, unitsPerEm: number): GlyphBitmap {
  const scale = FONT_SIZE / unitsPerEm;
  const segments = outline(glyph, scale);
  const advance = Math.round(glyph.advanceWidth * scale);
  if (segments.length === 0) return { id, bitmap: new Uint8Array(0), width: 0, height: 0, left: 0, top: -TOP_OFFSET, advance };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x0, y0, x1, y1] of segments) {
    minX = Math.min(minX, x0, x1);
    maxX = Math.max(maxX, x0, x1);
    minY = Math.min(minY, y0, y1);
    maxY = Math.max(maxY, y0, y1);
  }
  const left = Math.floor(minX);
  const bottom = Math.floor(minY);
  const top = Math.ceil(maxY);
  const width = Math.max(1, Math.ceil(maxX) - left);
  const height = Math.max(1, top - bottom);
  const w = width + 2 * BORDER;
  const h = height + 2 * BORDER;
  const bitmap = new Uint8Array(w * h);
  for (let row = 0; row < h; row++) {
    const py = top + BORDER - row - 0.5;
    for (let col = 0; col < w; col++) {
      const px = left - BORDER + col + 0.5;
      let best = Infinity;
      let winding = 0;
      for (const [x0, y0, x1, y1] of segments) {
        const dx = x1 - x0;
        const dy = y1 - y0;
        const len2 = dx * dx + dy * dy;
        const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2)) : 0;
        const ex = x0 + t * dx - px;
        const ey = y0 + t * dy - py;
        const d2 = ex * ex + ey * ey;
        if (d2 < best) best = d2;
        if (y0 <= py ? y1 > py : y1 <= py) {
          const cross = dx * (py - y0) - dy * (px - x0);
          if (y1 > y0 ? cross > 0 : cross < 0) winding += y1 > y0 ? 1 : -1;
        }
      }
      const d = winding !== 0 ? -Math.sqrt(best) : Math.sqrt(best);
      bitmap[row * w + col] = Math.max(0, Math.min(255, Math.round(255 - 255 * (d / RADIUS + CUTOFF))));
    }
  }
  return { id, bitmap, width, height, left, top: top - TOP_OFFSET, advance };
}

/** One character drawn from the first font that has it, or null when none has. */
function drawCodePoint(cp: number): GlyphBitmap | null {
  const font = loadFonts().find((f) => f.hasGlyphForCodePoint(cp));
  return font ? drawGlyph(cp, font.glyphForCodePoint(cp), font.unitsPerEm) : null;
}

/** The glyphs of one range among `chars` (those the font has), drawn. */
export function drawRange(start: number, chars: ReadonlySet<number>): GlyphBitmap[] {
  const out: GlyphBitmap[] = [];
  for (let cp = start; cp < start + 256; cp++) {
    const drawn = chars.has(cp) ? drawCodePoint(cp) : null;
    if (drawn) out.push(drawn);
  }
  return out;
}

/** Glyphs drawn between two yields to the event loop (about 15 ms of drawing). */
const DRAW_BATCH = 16;

/**
 * Every glyph the font has in one range, drawn in batches that yield to the event loop (a full range of
 * Chinese characters is about a quarter of a second of drawing: telemetry and calls go on meanwhile).
 */
export async function drawWholeRange(start: number): Promise<GlyphBitmap[]> {
  const out: GlyphBitmap[] = [];
  let inBatch = 0;
  for (let cp = Math.max(start, 0x20); cp < start + 256 && cp <= MAX_CODE_POINT; cp++) {
    const drawn = drawCodePoint(cp);
    if (!drawn) continue;
    out.push(drawn);
    if (++inBatch === DRAW_BATCH) {
      inBatch = 0;
      await yieldToLoop();
    }
  }
  return out;
}

/** A range PBF (glyphs.proto: glyphs { 1: fontstack { 1: name, 2: range, 3: glyph } }). */
export function encodeRange(start: number, glyphs: readonly GlyphBitmap[], fontstack = GLYPH_FONTSTACK): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, (_: unknown, p: PbfWriter) => {
    p.writeStringField(1, fontstack);
    p.writeStringField(2, `${start}-${start + 255}`);
    for (const g of glyphs) {
      p.writeMessage(3, (_g: unknown, q: PbfWriter) => {
        q.writeVarintField(1, g.id);
        if (g.bitmap.length > 0) q.writeBytesField(2, g.bitmap);
        q.writeVarintField(3, g.width);
        q.writeVarintField(4, g.height);
        q.writeSVarintField(5, g.left);
        q.writeSVarintField(6, g.top);
        q.writeVarintField(7, g.advance);
      }, undefined);
    }
  }, undefined);
  return pbf.finish();
}

/** The starts of the ranges that hold at least one of `chars`. */
export function rangesOf(chars: ReadonlySet<number>): number[] {
  return [...new Set([...chars].map((c) => c - (c % 256)))].sort((a, b) => a - b);
}

/** Writes a file atomically (a reader never sees half of it). */
function writeAtomic(file: string, data: Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Writes every needed range into `dir/{fontstack}/` (the build). Answers the count and bytes. */
export function buildGlyphs(dir: string = BUILT_DIR): { ranges: number; glyphs: number; bytes: number } {
  const chars = glyphCharacters();
  let glyphs = 0;
  let bytes = 0;
  const ranges = rangesOf(chars);
  for (const start of ranges) {
    const drawn = drawRange(start, chars);
    const pbf = encodeRange(start, drawn);
    writeAtomic(path.join(dir, GLYPH_FONTSTACK, rangeFile(start)), pbf);
    glyphs += drawn.length;
    bytes += pbf.length;
  }
  return { ranges: ranges.length, glyphs, bytes };
}

/**
 * The glyph files, answered from the build, else the data directory's cache, else drawn now and cached.
 * Ranges without any covered character are answered empty without touching the disk.
 */
export class GlyphStore {
  private chars: Set<number> | null = null;
  private readonly ranges = new Map<number, Uint8Array>();

  constructor(private readonly cacheDir: string, private readonly builtDir: string = BUILT_DIR) {}

  private characters(): Set<number> {
    this.chars ??= glyphCharacters();
    return this.chars;
  }

  private readonly whole = new Map<number, Promise<Uint8Array>>();

  /**
   * Every character of the font in a range (the `set=all` glyph URL of map packages, whose labels can hold
   * any text): drawn on first request, kept in the data directory's cache and in memory after. Concurrent
   * requests of one range share one drawing.
   */
  wholeRange(start: number): Promise<Uint8Array> {
    let pending = this.whole.get(start);
    if (!pending) {
      const cached = path.join(this.cacheDir, WHOLE_SET_DIR, GLYPH_FONTSTACK, rangeFile(start));
      pending = existsSync(cached)
        ? Promise.resolve(readFileSync(cached))
        : drawWholeRange(start).then((drawn) => {
            const data = encodeRange(start, drawn);
            if (drawn.length > 0) writeAtomic(cached, data);
            return data;
          });
      pending.catch(() => this.whole.delete(start));
      this.whole.set(start, pending);
    }
    return pending;
  }

  range(start: number): Uint8Array {
    const known = this.ranges.get(start);
    if (known) return known;
    const name = path.join(GLYPH_FONTSTACK, rangeFile(start));
    const built = path.join(this.builtDir, name);
    const cached = path.join(this.cacheDir, name);
    let data: Uint8Array;
    if (existsSync(built)) data = readFileSync(built);
    else if (existsSync(cached)) data = readFileSync(cached);
    else {
      const chars = this.characters();
      const drawn = rangesOf(chars).includes(start) ? drawRange(start, chars) : [];
      data = encodeRange(start, drawn);
      if (drawn.length > 0) writeAtomic(cached, data);
    }
    this.ranges.set(start, data);
    return data;
  }
}

/**
 * GET {zone}/tiles/glyphs/{fontstack}/{start}-{end}.pbf: public like the tiles. 404 for another font
 * stack than GLYPH_FONTSTACK (the path never names a file: the stack is compared, the range parsed into a
 * number), 400 for a malformed range.
 */
export function registerGlyphs(app: FastifyInstance, dataDir: string): GlyphStore {
  const store = new GlyphStore(glyphCacheDir(dataDir));
  app.get(`${GLYPHS_PREFIX}/:fontstack/:range`, async (request, reply) => {
    const { fontstack, range } = request.params as { fontstack: string; range: string };
    const lang = toLang(request.headers['accept-language']);
    if (fontstack !== GLYPH_FONTSTACK) {
      return reply.code(404).header('cache-control', 'no-cache').send(envelope(ResultCode.NO_SUCH_CALL, lang));
    }
    const start = parseRange(range);
    if (start === null) return reply.code(400).header('cache-control', 'no-cache').send(envelope(ResultCode.BAD_REQUEST, lang));
    const whole = (request.query as { set?: unknown }).set === WHOLE_SET;
    const etag = `"glyphs-${GLYPHS_VERSION}-${whole ? 'all-' : ''}${start}"`;
    reply.header('cache-control', GLYPH_CACHE_CONTROL).header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const data = whole ? await store.wholeRange(start) : store.range(start);
    return reply.header('content-type', 'application/x-protobuf').send(Buffer.from(data));
  });
  return store;
}

// Database: SQLite only: glyph files, no database.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLYPH_FONTSTACK, GLYPHS_PREFIX, GlyphStore, glyphCacheDir, parseRange, registerGlyphs } from './glyphs.js';

interface DecodedGlyph {
  id: number;
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/** A glyph range PBF read as MapLibre reads it (style/parse_glyph_pbf.ts): stacks, then glyphs. */
function decode(data: Uint8Array): { name?: string; range?: string; glyphs: DecodedGlyph[] }[] {
  return new PbfReader(data).readFields((tag, stacks: { name?: string; range?: string; glyphs: DecodedGlyph[] }[], pbf) => {
    if (tag !== 1) return;
    stacks.push(
      pbf.readMessage(
        (t, stack: { name?: string; range?: string; glyphs: DecodedGlyph[] }, p) => {
          if (t === 1) stack.name = p.readString();
          else if (t === 2) stack.range = p.readString();
          else if (t === 3) {
            stack.glyphs.push(
              p.readMessage(
                (g, glyph: DecodedGlyph, q) => {
                  if (g === 1) glyph.id = q.readVarint();
                  else if (g === 2) glyph.bitmap = q.readBytes();
                  else if (g === 3) glyph.width = q.readVarint();
                  else if (g === 4) glyph.height = q.readVarint();
                  else if (g === 5) glyph.left = q.readSVarint();
                  else if (g === 6) glyph.top = q.readSVarint();
                  else if (g === 7) glyph.advance = q.readVarint();
                },
                { id: -1, width: 0, height: 0, left: 0, top: 0, advance: 0 },
              ),
            );
          }
        },
        { glyphs: [] },
      ),
    );
  }, []);
}

const rangeOf = (c: string) => {
  const start = c.codePointAt(0)! - (c.codePointAt(0)! % 256);
  return `${start}-${start + 255}.pbf`;
};
const url = (range: string, stack = encodeURIComponent(GLYPH_FONTSTACK)) => `${GLYPHS_PREFIX}/${stack}/${range}`;

let dataDir: string;
let app: FastifyInstance;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'nest-glyphs-'));
  app = Fastify({ logger: false });
  registerGlyphs(app, dataDir);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('glyph endpoint', () => {
  it("answers the glyphs of '深圳' and 'Shenzhen' as MapLibre glyph PBFs", async () => {
    const ids = new Map<number, DecodedGlyph>();
    for (const range of new Set([...'深圳Shenzhen'].map(rangeOf))) {
      const res = await app.inject({ method: 'GET', url: url(range) });
      expect(res.statusCode, range).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-protobuf');
      expect(res.headers['cache-control']).toMatch(/public, max-age=\d{5,}/);
      const [stack, ...more] = decode(res.rawPayload);
      expect(more).toEqual([]);
      expect(stack!.name).toBe(GLYPH_FONTSTACK);
      expect(stack!.range).toBe(range.replace('.pbf', ''));
      for (const g of stack!.glyphs) ids.set(g.id, g);
    }
    for (const c of '深圳Shenzhen') {
      const g = ids.get(c.codePointAt(0)!);
      expect(g, c).toBeDefined();
      // SDF with a 3 px border: (width + 6) x (height + 6) bytes, inside (>= 192) and outside (< 192) both drawn.
      expect(g!.bitmap!.length).toBe((g!.width + 6) * (g!.height + 6));
      expect(Math.max(...g!.bitmap!)).toBeGreaterThanOrEqual(192);
      expect(Math.min(...g!.bitmap!)).toBeLessThan(100);
      expect(g!.advance).toBeGreaterThan(c.charCodeAt(0) > 255 ? 20 : 5);
    }
    // A full-width character is about one em (24 px) wide, a Latin letter narrower.
    expect(ids.get('深'.codePointAt(0)!)!.advance).toBe(24);
    expect(ids.get('h'.codePointAt(0)!)!.advance).toBeLessThan(18);
    // Latin-1 is complete.
    expect(ids.get(0xe9)).toBeDefined();
  });

  it('answers a range without any covered character as an empty glyph PBF', async () => {
    const res = await app.inject({ method: 'GET', url: url('44032-44287.pbf') }); // Hangul
    expect(res.statusCode).toBe(200);
    const stacks = decode(res.rawPayload);
    expect(stacks[0]!.glyphs).toEqual([]);
  });

  it('refuses malformed ranges, other font stacks and traversal', async () => {
    for (const range of ['0-256.pbf', '1-256.pbf', '256-511', '256-511.png', '-256-511.pbf', '0256-0511.pbf', '65536-65791.pbf',
      '256-511.pbf.pbf', '%2e%2e%2fx.pbf', '256-511.pbf%00', '99999999-100000254.pbf', 'a-b.pbf']) {
      const res = await app.inject({ method: 'GET', url: url(range) });
      expect(res.statusCode, range).toBe(400);
    }
    for (const stack of ['Arial', '..', '%2e%2e', '..%2F..%2Fetc', 'Noto%20Sans%20Regular%2F..', encodeURIComponent('Noto Sans Bold')]) {
      const res = await app.inject({ method: 'GET', url: url('0-255.pbf', stack) });
      expect(res.statusCode, stack).toBe(404);
    }
    expect((await app.inject({ method: 'GET', url: `${GLYPHS_PREFIX}/../../basemap/0/0/0.pbf` })).statusCode).not.toBe(200);
    expect((await app.inject({ method: 'POST', url: url('0-255.pbf') })).statusCode).toBe(404);
    expect(parseRange('65280-65535.pbf')).toBe(65280);
  });

  it('answers every character of the font with set=all (labels of map packages), once drawn and cached', async () => {
    // 测试点 ("test point"): 测 and 试 are in no basemap place name, so the basemap set lacks at least one of them.
    const chars = '测试点';
    const ranges = [...new Set([...chars].map(rangeOf))];
    const basemapSet = new Set<number>();
    const wholeSet = new Set<number>();
    for (const range of ranges) {
      const basemap = decode((await app.inject({ method: 'GET', url: url(range) })).rawPayload)[0]!.glyphs;
      for (const g of basemap) basemapSet.add(g.id);
      const res = await app.inject({ method: 'GET', url: `${url(range)}?set=all` });
      expect(res.statusCode, range).toBe(200);
      expect(res.headers.etag).toMatch(/all/);
      const [stack] = decode(res.rawPayload);
      // A whole range: every character the font has there, far more than the basemap's few.
      expect(stack!.glyphs.length).toBeGreaterThan(basemap.length + 100);
      for (const g of stack!.glyphs) wholeSet.add(g.id);
    }
    expect([...chars].every((c) => wholeSet.has(c.codePointAt(0)!))).toBe(true);
    expect([...chars].every((c) => basemapSet.has(c.codePointAt(0)!))).toBe(false);
    // Cached in the data directory: a new store answers the same bytes without drawing.
    const start = '测'.codePointAt(0)! - ('测'.codePointAt(0)! % 256);
    const again = await new GlyphStore(glyphCacheDir(dataDir), path.join(dataDir, 'no-build')).wholeRange(start);
    const served = (await app.inject({ method: 'GET', url: `${url(rangeOf('测'))}?set=all` })).rawPayload;
    expect(Buffer.compare(Buffer.from(again), served)).toBe(0);
  });

  it('draws a range once into the data directory when there is no build', async () => {
    const cache = glyphCacheDir(dataDir);
    const store = new GlyphStore(cache, path.join(dataDir, 'no-build'));
    const start = '圳'.codePointAt(0)! - ('圳'.codePointAt(0)! % 256);
    const first = store.range(start);
    expect(await readdir(path.join(cache, GLYPH_FONTSTACK))).toContain(`${start}-${start + 255}.pbf`);
    const again = new GlyphStore(cache, path.join(dataDir, 'no-build')).range(start);
    expect(Buffer.compare(Buffer.from(again), Buffer.from(first))).toBe(0);
  });
});

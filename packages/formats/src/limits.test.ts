/// <reference types="node" />
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ImportResult } from './index.js';
import { DEFAULT_LIMITS, exportPlanFile, importPlanFile } from './index.js';
import { isSafeZipPath } from './zip.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const error = (r: ImportResult) => {
  if (r.ok) throw new Error('expected a refusal');
  return r.error;
};
const MB = 1024 * 1024;

const validKmz = (): Uint8Array => {
  const out = exportPlanFile(
    { fences: [], surveys: [], routes: [{ name: 'r', mission_type: 1, height_type: 0, waypoints: [{ lat: 30, lng: 120, height: 50 }, { lat: 30.001, lng: 120, height: 50 }] }] },
    'kmz',
  );
  if (!out.ok) throw new Error('export failed');
  return out.bytes;
};

/** Sets every declared uncompressed size (local headers and central directory) of a zip to `size`. */
function forgeSizes(zip: Uint8Array, size: number): Uint8Array {
  const b = zip.slice();
  const dv = new DataView(b.buffer);
  for (let i = 0; i + 4 <= b.length; i++) {
    const sig = dv.getUint32(i, true);
    if (sig === 0x04034b50) dv.setUint32(i + 22, size, true);
    if (sig === 0x02014b50) dv.setUint32(i + 24, size, true);
  }
  return b;
}

describe('XML: no DOCTYPE, no entities, bounded size and depth', () => {
  it('billion laughs is refused before parsing', () => {
    expect(error(importPlanFile('lol.kml', fixture('billion-laughs.kml')))).toEqual({
      zh: '文件包含 DOCTYPE 或实体（ENTITY）声明，出于安全原因拒绝导入',
      en: 'The file contains a DOCTYPE or ENTITY declaration and is refused for safety',
    });
  });
  it('external entity (XXE) is refused before parsing', () => {
    expect(error(importPlanFile('xxe.kml', fixture('external-entity.kml'))).en).toMatch(/DOCTYPE or ENTITY/);
  });
  it('a DOCTYPE hidden in a KMZ is refused too', () => {
    const zip = zipSync({ 'doc.kml': fixture('billion-laughs.kml') });
    expect(error(importPlanFile('lol.kmz', zip)).en).toMatch(/DOCTYPE or ENTITY/);
  });
  it('size cap before decoding (default 20 MB, configurable)', () => {
    expect(DEFAULT_LIMITS.maxFileBytes).toBe(20 * MB);
    const big = new Uint8Array(DEFAULT_LIMITS.maxFileBytes + 1);
    expect(error(importPlanFile('big.kml', big)).en).toBe('The file is too large (20 MB); the limit is 20 MB');
    expect(error(importPlanFile('a.kml', fixture('google-earth.kml'), { limits: { maxFileBytes: 1000 } })).en).toMatch(/too large/);
  });
  it('deep nesting and element floods are refused', () => {
    const deep = `<kml>${'<Folder>'.repeat(200)}${'</Folder>'.repeat(200)}</kml>`;
    expect(error(importPlanFile('d.kml', text(deep))).en).toBe('The XML is nested too deeply (more than 100 levels)');
    const flood = `<kml><Document>${'<a/>'.repeat(2000)}</Document></kml>`;
    expect(error(importPlanFile('f.kml', text(flood), { limits: { maxXmlElements: 1000 } })).en).toBe('The XML has too many elements (more than 1000)');
  });
  it('coordinate count cap (default 200,000)', () => {
    expect(DEFAULT_LIMITS.maxCoordinates).toBe(200_000);
    const coords = Array.from({ length: 200_001 }, (_, i) => `${(i % 1000) / 1000},${Math.floor(i / 1000) / 1000}`).join(' ');
    const k = `<kml><Document><Placemark><LineString><coordinates>${coords}</coordinates></LineString></Placemark></Document></kml>`;
    expect(error(importPlanFile('many.kml', text(k))).zh).toBe('文件中的坐标点过多（超过 200000 个）');
    const geo = JSON.stringify({ type: 'MultiPoint', coordinates: Array.from({ length: 11 }, () => [1, 1]) });
    expect(error(importPlanFile('many.json', text(geo), { limits: { maxCoordinates: 10 } })).en).toMatch(/too many coordinates/);
  });
});

describe('JSON: depth and size caps', () => {
  it('deeply nested arrays are refused before JSON.parse', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(error(importPlanFile('d.json', text(deep))).en).toBe('The JSON is nested too deeply (more than 64 levels)');
  });
  it('brackets inside strings do not count', () => {
    const s = JSON.stringify({ type: 'Point', coordinates: [1, 2], note: '[[[[[[[[[['.repeat(20) });
    expect(importPlanFile('p.json', text(s)).ok).toBe(true);
  });
});

describe('KMZ: entry count, declared and actual unpacked size, paths', () => {
  it('a genuine zip bomb (60 MB of zeros in a few KB) is refused from its declared size', () => {
    const bomb = zipSync({ 'wpmz/waylines.wpml': new Uint8Array(60 * MB) }, { level: 9 });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(error(importPlanFile('bomb.kmz', bomb))).toEqual({
      zh: 'KMZ 解压后过大（声明 60 MB，最大 50 MB）',
      en: 'The KMZ unpacks too large (60 MB declared; the limit is 50 MB)',
    });
  });
  it('a bomb that lies about its size is stopped while inflating', () => {
    const bomb = forgeSizes(zipSync({ 'wpmz/waylines.wpml': new Uint8Array(60 * MB) }, { level: 9 }), 1000);
    expect(error(importPlanFile('liar.kmz', bomb)).en).toBe('"wpmz/waylines.wpml" in the KMZ unpacks larger than declared; the archive may be forged');
  });
  it('the actual total is counted across entries', () => {
    const zip = zipSync({ 'wpmz/template.kml': new Uint8Array(3000).fill(32), 'wpmz/waylines.wpml': new Uint8Array(3000).fill(32) });
    expect(error(importPlanFile('t.kmz', forgeSizes(zip, 3000), { limits: { maxKmzUnpackedBytes: 5000, maxFileBytes: MB } })).en).toMatch(/unpacks too large/);
  });
  it('too many entries (limit 100)', () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 101; i++) files[`f${i}.txt`] = strToU8('x');
    expect(error(importPlanFile('many.kmz', zipSync(files))).en).toBe('The KMZ holds too many files (101; the limit is 100)');
  });
  it('path traversal names are refused', () => {
    expect(error(importPlanFile('evil.kmz', zipSync({ '../../etc/cron.d/x.kml': strToU8('<kml/>') }))).en).toBe('The KMZ holds an unsafe path "../../etc/cron.d/x.kml"');
    for (const bad of ['/abs.kml', 'C:\\win.kml', 'a/../../b.kml', '..\\x.kml', 'a\0b']) expect(isSafeZipPath(bad)).toBe(false);
    for (const good of ['wpmz/template.kml', 'doc.kml', 'files/..icon.png']) expect(isSafeZipPath(good)).toBe(true);
  });
  it('not a zip, truncated zip, zip without a route file', () => {
    expect(error(importPlanFile('x.kmz', text('<kml/>'))).en).toBe('Not a valid KMZ (zip) file');
    const kmz = validKmz();
    expect(error(importPlanFile('t.kmz', kmz.subarray(0, kmz.length - 30))).en).toMatch(/Not a valid KMZ|corrupt/);
    expect(error(importPlanFile('n.kmz', zipSync({ 'readme.txt': strToU8('hi') }))).en).toBe('The KMZ holds no KML or WPML route file');
  });
  it('encrypted entries are refused', () => {
    const kmz = validKmz().slice();
    const dv = new DataView(kmz.buffer);
    for (let i = 0; i + 4 <= kmz.length; i++) if (dv.getUint32(i, true) === 0x02014b50) dv.setUint16(i + 8, dv.getUint16(i + 8, true) | 1, true);
    expect(error(importPlanFile('e.kmz', kmz)).en).toBe('Encrypted KMZ files are not supported');
  });
});

describe('never throws', () => {
  const names = ['a.kml', 'a.kmz', 'a.json', 'a.plan', 'a.geojson'];
  it('random bytes under every extension give a result, not an exception', () => {
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.uint8Array({ maxLength: 400 }), (name, bytes) => {
        const r = importPlanFile(name, bytes);
        expect(typeof r.ok).toBe('boolean');
        if (!r.ok) expect(r.error.en.length).toBeGreaterThan(0);
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
  it('mutated valid files give a result, not an exception', () => {
    const seeds = [fixture('google-earth.kml'), fixture('qgc-mission.plan'), fixture('inspection.json'), validKmz()];
    const exts = ['.kml', '.plan', '.json', '.kmz'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (k, edits) => {
        const b = seeds[k]!.slice();
        for (const [at, v] of edits) b[at % b.length] = v;
        const r = importPlanFile(`m${exts[k]}`, b);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
  it('random JSON values give a result, not an exception', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom('a.json', 'a.plan'), (v, name) => {
        const r = importPlanFile(name, text(JSON.stringify(v) ?? 'null'));
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});

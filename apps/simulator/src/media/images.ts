import jpeg from 'jpeg-js';
import { createRng, hashString } from '../rng.js';
import { withExif } from './exif.js';

/**
 * Synthetic, deterministic pictures: an aerial photo looking straight down (fields, roads, roofs) and an
 * equirectangular panorama (sky, horizon, ground). The same position gives the same picture. Encoding is
 * kept cheap: one pass over the pixels with integer arithmetic, quality 70.
 */

export interface PhotoOptions {
  lat: number;
  lng: number;
  /** AMSL (m), written to EXIF. */
  alt: number;
  takenAt: number;
  width?: number;
  height?: number;
  quality?: number;
}

export const PHOTO_SIZE = { width: 1280, height: 960 } as const;
export const PANORAMA_SIZE = { width: 2048, height: 1024 } as const;

type Rgb = [number, number, number];
const FIELD_COLOURS: Rgb[] = [
  [96, 128, 60],
  [122, 150, 72],
  [150, 140, 84],
  [176, 160, 100],
  [84, 110, 54],
  [134, 112, 78],
  [110, 138, 90],
];
const ROOF_COLOURS: Rgb[] = [
  [168, 70, 56],
  [120, 120, 126],
  [70, 90, 130],
  [200, 196, 186],
];

interface Scene {
  cell: number;
  colours: Rgb[][];
  stripes: number[][];
  roads: { nx: number; ny: number; c: number; half: number }[];
  roofs: { x: number; y: number; w: number; h: number; c: Rgb }[];
}

function scene(seedKey: string, width: number, height: number): Scene {
  const rng = createRng(hashString(seedKey));
  const cell = 120 + rng.int(0, 80);
  const cols = Math.ceil(width / cell) + 1;
  const rows = Math.ceil(height / cell) + 1;
  const colours: Rgb[][] = [];
  const stripes: number[][] = [];
  for (let r = 0; r < rows; r++) {
    colours.push(Array.from({ length: cols }, () => rng.pick(FIELD_COLOURS)));
    stripes.push(Array.from({ length: cols }, () => rng.int(0, 1)));
  }
  const roads = Array.from({ length: rng.int(1, 3) }, () => {
    const a = rng.range(0, Math.PI);
    const nx = Math.cos(a);
    const ny = Math.sin(a);
    const px = rng.range(0.2, 0.8) * width;
    const py = rng.range(0.2, 0.8) * height;
    return { nx, ny, c: nx * px + ny * py, half: rng.range(4, 9) };
  });
  // Roofs line the roads: a house every so often on either side.
  const roofs: Scene['roofs'] = [];
  for (const road of roads) {
    for (let i = 0; i < 14; i++) {
      const t = rng.range(-1, 1) * Math.max(width, height);
      const side = rng.chance(0.5) ? 1 : -1;
      const off = road.half + rng.range(10, 40);
      const cx = road.nx * road.c - road.ny * t + side * road.nx * off;
      const cy = road.ny * road.c + road.nx * t + side * road.ny * off;
      const w = rng.int(16, 40);
      const h = rng.int(16, 34);
      roofs.push({ x: Math.round(cx - w / 2), y: Math.round(cy - h / 2), w, h, c: rng.pick(ROOF_COLOURS) });
    }
  }
  return { cell, colours, stripes, roads, roofs };
}

/** Ground colour at (x, y) of the scene, shaded by `shade` (0..256). */
function ground(s: Scene, x: number, y: number, out: Uint8Array, i: number, shade = 256): void {
  for (const r of s.roads) {
    if (Math.abs(r.nx * x + r.ny * y - r.c) < r.half) {
      const v = (140 * shade) >> 8;
      out[i] = v;
      out[i + 1] = v;
      out[i + 2] = (v + 6) & 255;
      out[i + 3] = 255;
      return;
    }
  }
  const cx = Math.floor(x / s.cell);
  const cy = Math.floor(y / s.cell);
  const row = s.colours[((cy % s.colours.length) + s.colours.length) % s.colours.length]!;
  const col = ((cx % row.length) + row.length) % row.length;
  const c = row[col]!;
  const stripeRow = s.stripes[((cy % s.stripes.length) + s.stripes.length) % s.stripes.length]!;
  const stripe = stripeRow[col] === 1 ? (x & 7) < 4 : (y & 7) < 4;
  // Field boundaries: a darker hedge line.
  const edge = x - cx * s.cell < 3 || y - cy * s.cell < 3;
  const k = ((edge ? 170 : stripe ? 240 : 256) * shade) >> 8;
  out[i] = (c[0] * k) >> 8;
  out[i + 1] = (c[1] * k) >> 8;
  out[i + 2] = (c[2] * k) >> 8;
  out[i + 3] = 255;
}

const seedOf = (lat: number, lng: number): string => `${lat.toFixed(5)},${lng.toFixed(5)}`;

/** An aerial photo (JPEG) with EXIF GPS and DateTimeOriginal. */
export function makePhoto(o: PhotoOptions): Buffer {
  const width = o.width ?? PHOTO_SIZE.width;
  const height = o.height ?? PHOTO_SIZE.height;
  const s = scene(seedOf(o.lat, o.lng), width, height);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) ground(s, x, y, data, (y * width + x) * 4);
  for (const r of s.roofs) {
    for (let y = Math.max(0, r.y); y < Math.min(height, r.y + r.h); y++) {
      for (let x = Math.max(0, r.x); x < Math.min(width, r.x + r.w); x++) {
        const i = (y * width + x) * 4;
        // The ridge splits the roof into a lit and a shaded half.
        const k = x - r.x < r.w / 2 ? 256 : 200;
        data[i] = (r.c[0] * k) >> 8;
        data[i + 1] = (r.c[1] * k) >> 8;
        data[i + 2] = (r.c[2] * k) >> 8;
      }
    }
  }
  const jpg = jpeg.encode({ data, width, height }, o.quality ?? 70).data;
  return withExif(Buffer.from(jpg), o);
}

/** An equirectangular (2:1) panorama: sky gradient, horizon haze, ground in perspective. */
export function makePanorama(o: PhotoOptions): Buffer {
  const width = o.width ?? PANORAMA_SIZE.width;
  const height = o.height ?? Math.round(width / 2);
  const s = scene(seedOf(o.lat, o.lng), 4096, 4096);
  const data = new Uint8Array(width * height * 4);
  const horizon = Math.round(height / 2);
  for (let y = 0; y < height; y++) {
    if (y < horizon) {
      // Deep blue at the zenith to pale near the horizon.
      const t = y / horizon;
      const r = Math.round(70 + 150 * t);
      const g = Math.round(120 + 110 * t);
      const b = Math.round(200 + 45 * t);
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        data[i] = r;
        data[i + 1] = g;
        data[i + 2] = b;
        data[i + 3] = 255;
      }
      continue;
    }
    // Ground: distance from the camera grows towards the horizon; haze fades it into the sky colour.
    const below = (y - horizon + 1) / (height - horizon);
    const dist = 40 / below;
    const haze = Math.min(256, Math.round(256 * below * 3));
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const a = (x / width) * 2 * Math.PI;
      ground(s, 2048 + dist * Math.cos(a), 2048 + dist * Math.sin(a), data, i, 160 + (haze >> 2));
      data[i] = (data[i]! * haze + 215 * (256 - haze)) >> 8;
      data[i + 1] = (data[i + 1]! * haze + 225 * (256 - haze)) >> 8;
      data[i + 2] = (data[i + 2]! * haze + 235 * (256 - haze)) >> 8;
    }
  }
  const jpg = jpeg.encode({ data, width, height }, o.quality ?? 70).data;
  return withExif(Buffer.from(jpg), o);
}

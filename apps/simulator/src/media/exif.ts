/**
 * A small, correct EXIF writer (and reader, for tests): GPS latitude / longitude / altitude and
 * DateTimeOriginal in an APP1 segment right after the JPEG's SOI. Little-endian TIFF, three IFDs
 * (IFD0 -> Exif IFD, GPS IFD). Written by hand to keep the simulator free of EXIF dependencies.
 */

export interface ExifFacts {
  lat: number;
  lng: number;
  /** Metres above sea level. */
  alt: number;
  /** ms since the epoch (written as UTC, EXIF has no zone). */
  takenAt: number;
  make?: string;
}

const BYTE = 1;
const ASCII = 2;
const LONG = 4;
const RATIONAL = 5;

interface Entry {
  tag: number;
  type: number;
  count: number;
  value: Buffer;
}

const ascii = (tag: number, s: string): Entry => {
  const value = Buffer.from(`${s}\0`, 'latin1');
  return { tag, type: ASCII, count: value.length, value };
};
const long = (tag: number, v: number): Entry => {
  const value = Buffer.alloc(4);
  value.writeUInt32LE(v);
  return { tag, type: LONG, count: 1, value };
};
const bytes = (tag: number, v: number[]): Entry => ({ tag, type: BYTE, count: v.length, value: Buffer.from(v) });
const rationals = (tag: number, v: [number, number][]): Entry => {
  const value = Buffer.alloc(8 * v.length);
  v.forEach(([n, d], i) => {
    value.writeUInt32LE(n, 8 * i);
    value.writeUInt32LE(d, 8 * i + 4);
  });
  return { tag, type: RATIONAL, count: v.length, value };
};

/** Degrees as EXIF deg/min/sec rationals (seconds to 1/10000). */
function dms(deg: number): [number, number][] {
  const a = Math.abs(deg);
  const d = Math.floor(a);
  const mFull = (a - d) * 60;
  const m = Math.floor(mFull);
  const s = Math.round((mFull - m) * 60 * 10_000);
  return [
    [d, 1],
    [m, 1],
    [s, 10_000],
  ];
}

const pad2 = (n: number): string => String(n).padStart(2, '0');
export function exifDate(ms: number): string {
  const t = new Date(ms);
  return `${t.getUTCFullYear()}:${pad2(t.getUTCMonth() + 1)}:${pad2(t.getUTCDate())} ${pad2(t.getUTCHours())}:${pad2(t.getUTCMinutes())}:${pad2(t.getUTCSeconds())}`;
}

const ifdSize = (entries: Entry[]): number =>
  2 + 12 * entries.length + 4 + entries.reduce((n, e) => n + (e.value.length > 4 ? e.value.length + (e.value.length % 2) : 0), 0);

/** Writes one IFD (entries sorted by tag) at `start` (offset from the TIFF header); next IFD 0. */
function writeIfd(entries: Entry[], start: number): Buffer {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const out = Buffer.alloc(ifdSize(sorted));
  out.writeUInt16LE(sorted.length, 0);
  let data = 2 + 12 * sorted.length + 4;
  sorted.forEach((e, i) => {
    const p = 2 + 12 * i;
    out.writeUInt16LE(e.tag, p);
    out.writeUInt16LE(e.type, p + 2);
    out.writeUInt32LE(e.count, p + 4);
    if (e.value.length <= 4) {
      e.value.copy(out, p + 8);
    } else {
      out.writeUInt32LE(start + data, p + 8);
      e.value.copy(out, data);
      data += e.value.length + (e.value.length % 2);
    }
  });
  out.writeUInt32LE(0, 2 + 12 * sorted.length);
  return out;
}

/** The TIFF body of the APP1 segment. */
export function exifTiff(f: ExifFacts): Buffer {
  const exif = [ascii(0x9003, exifDate(f.takenAt)), ascii(0x9004, exifDate(f.takenAt))];
  const gps = [
    bytes(0x0000, [2, 3, 0, 0]),
    ascii(0x0001, f.lat >= 0 ? 'N' : 'S'),
    rationals(0x0002, dms(f.lat)),
    ascii(0x0003, f.lng >= 0 ? 'E' : 'W'),
    rationals(0x0004, dms(f.lng)),
    bytes(0x0005, [f.alt >= 0 ? 0 : 1]),
    rationals(0x0006, [[Math.round(Math.abs(f.alt) * 100), 100]]),
  ];
  // IFD0 holds the two pointers; their values depend on IFD0's own size, which does not depend on them.
  const ifd0Entries = (exifAt: number, gpsAt: number) => [ascii(0x010f, f.make ?? 'NestSim'), ascii(0x0132, exifDate(f.takenAt)), long(0x8769, exifAt), long(0x8825, gpsAt)];
  const ifd0At = 8;
  const exifAt = ifd0At + ifdSize(ifd0Entries(0, 0));
  const gpsAt = exifAt + ifdSize(exif);
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
  return Buffer.concat([header, writeIfd(ifd0Entries(exifAt, gpsAt), ifd0At), writeIfd(exif, exifAt), writeIfd(gps, gpsAt)]);
}

/** Inserts the EXIF APP1 segment right after SOI. */
export function withExif(jpeg: Buffer, f: ExifFacts): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff(f)]);
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xffe1, 0);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

/** Reads back what `withExif` wrote (GPS and DateTimeOriginal); null when there is no EXIF. */
export function readExif(jpeg: Buffer): { lat: number; lng: number; alt: number; dateTimeOriginal: string } | null {
  let p = 2;
  while (p + 4 <= jpeg.length && jpeg[p] === 0xff) {
    const marker = jpeg[p + 1]!;
    const len = jpeg.readUInt16BE(p + 2);
    if (marker === 0xe1 && jpeg.subarray(p + 4, p + 10).toString('latin1') === 'Exif\0\0') return parseTiff(jpeg.subarray(p + 10, p + 2 + len));
    if (marker === 0xda) break;
    p += 2 + len;
  }
  return null;
}

function parseTiff(t: Buffer): { lat: number; lng: number; alt: number; dateTimeOriginal: string } | null {
  if (t.toString('latin1', 0, 2) !== 'II') return null;
  const entries = (at: number): Map<number, { type: number; count: number; at: number }> => {
    const m = new Map<number, { type: number; count: number; at: number }>();
    const n = t.readUInt16LE(at);
    for (let i = 0; i < n; i++) {
      const p = at + 2 + 12 * i;
      const type = t.readUInt16LE(p + 2);
      const count = t.readUInt32LE(p + 4);
      const size = count * ({ 1: 1, 2: 1, 3: 2, 4: 4, 5: 8 }[type] ?? 1);
      m.set(t.readUInt16LE(p), { type, count, at: size <= 4 ? p + 8 : t.readUInt32LE(p + 8) });
    }
    return m;
  };
  const str = (e: { count: number; at: number } | undefined): string => (e ? t.toString('latin1', e.at, e.at + e.count - 1) : '');
  const rat = (e: { at: number } | undefined, i: number): number => (e ? t.readUInt32LE(e.at + 8 * i) / t.readUInt32LE(e.at + 8 * i + 4) : NaN);
  const ifd0 = entries(t.readUInt32LE(4));
  const gpsPtr = ifd0.get(0x8825);
  const exifPtr = ifd0.get(0x8769);
  if (!gpsPtr || !exifPtr) return null;
  const gps = entries(t.readUInt32LE(gpsPtr.at));
  const exif = entries(t.readUInt32LE(exifPtr.at));
  const deg = (tag: number): number => rat(gps.get(tag), 0) + rat(gps.get(tag), 1) / 60 + rat(gps.get(tag), 2) / 3600;
  const altRef = gps.get(0x0005);
  return {
    lat: deg(0x0002) * (str(gps.get(0x0001)) === 'S' ? -1 : 1),
    lng: deg(0x0004) * (str(gps.get(0x0003)) === 'W' ? -1 : 1),
    alt: rat(gps.get(0x0006), 0) * (altRef && t[altRef.at] === 1 ? -1 : 1),
    dateTimeOriginal: str(exif.get(0x9003)),
  };
}

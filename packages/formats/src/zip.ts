import { Inflate, type Zippable, zipSync } from 'fflate';
import type { ImportLimits } from './limits.js';
import { FormatError, T, fail } from './texts.js';

/**
 * Zip archives of the plan formats (KMZ), written and read in memory with fflate in the browser and on the
 * server alike.
 *
 * Writing: the files of a small archive, deflated, all with one modification time.
 *
 * Reading a zip (KMZ) without trusting it:
 * 1. the central directory is read first: entry count, names and declared sizes are checked before any
 *    byte is inflated (too many entries, declared total too large, unsafe paths, encryption, ZIP64);
 * 2. only the entries asked for are inflated, in 16 KiB input slices (DEFLATE expands at most ~1032:1,
 *    so one slice yields at most ~17 MB), counting output bytes and stopping as soon as an entry outgrows
 *    its declared size or the total outgrows the limit: a forged directory cannot smuggle a bomb through.
 */

/** A zip of the given files (name to content), deflated at level 6; zip times start in 1980, earlier ones are raised. */
export function writeZip(files: Readonly<Record<string, Uint8Array>>, mtime: Date): Uint8Array {
  const when = new Date(Math.max(mtime.getTime(), Date.UTC(1980, 0, 2)));
  const entries: Zippable = {};
  for (const [name, bytes] of Object.entries(files)) entries[name] = [bytes, { mtime: when }];
  return zipSync(entries, { level: 6 });
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** Uncompressed size as the central directory declares it. */
  size: number;
  localOffset: number;
}

const u16 = (b: Uint8Array, o: number): number => b[o]! | (b[o + 1]! << 8);
const u32 = (b: Uint8Array, o: number): number => (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;

export const isZip = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

const nameDecoder = new TextDecoder('utf-8');

/** A path that stays inside the archive: relative, no `..` segment, no drive letter, no NUL. */
export function isSafeZipPath(name: string): boolean {
  if (name === '' || name.includes('\0')) return false;
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[A-Za-z]:/.test(n)) return false;
  return !n.split('/').some((seg) => seg === '..');
}

/** Reads and checks the central directory. */
export function readZipDirectory(bytes: Uint8Array, limits: ImportLimits): ZipEntry[] {
  // End of central directory: 22 bytes + a comment of up to 65535 bytes, searched from the end.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 0xffff; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail(T.notZip());
  const count = u16(bytes, eocd + 10);
  const cdSize = u32(bytes, eocd + 12);
  const cdOffset = u32(bytes, eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) fail(T.zip64());
  if (u16(bytes, eocd + 4) !== 0 || u16(bytes, eocd + 6) !== 0) fail(T.notZip());
  if (count > limits.maxKmzEntries) fail(T.zipTooManyEntries(count, limits.maxKmzEntries));
  if (cdOffset + cdSize > eocd) fail(T.notZip());

  const entries: ZipEntry[] = [];
  let declared = 0;
  let p = cdOffset;
  for (let k = 0; k < count; k++) {
    if (p + 46 > eocd || u32(bytes, p) !== 0x02014b50) fail(T.notZip());
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    const compressedSize = u32(bytes, p + 20);
    const size = u32(bytes, p + 24);
    const nameLen = u16(bytes, p + 28);
    const extraLen = u16(bytes, p + 30);
    const commentLen = u16(bytes, p + 32);
    const localOffset = u32(bytes, p + 42);
    if (p + 46 + nameLen > eocd) fail(T.notZip());
    const name = nameDecoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) fail(T.zip64());
    if (flags & 1) fail(T.zipEncrypted());
    if (!isSafeZipPath(name)) fail(T.zipBadPath(name));
    declared += size;
    if (declared > limits.maxKmzUnpackedBytes) fail(T.zipDeclaredTooLarge(declared, limits.maxKmzUnpackedBytes));
    entries.push({ name: name.replace(/\\/g, '/'), method, compressedSize, size, localOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Running total of inflated bytes for one archive. */
export interface UnzipBudget {
  used: number;
}

const SLICE = 16 * 1024;

/** Inflates one entry, counting bytes against its declared size and the archive's budget. */
export function extractEntry(bytes: Uint8Array, entry: ZipEntry, limits: ImportLimits, budget: UnzipBudget): Uint8Array {
  const o = entry.localOffset;
  if (o + 30 > bytes.length || u32(bytes, o) !== 0x04034b50) fail(T.zipCorrupt(entry.name));
  const start = o + 30 + u16(bytes, o + 26) + u16(bytes, o + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) fail(T.zipCorrupt(entry.name));
  const data = bytes.subarray(start, end);
  const account = (n: number, entrySoFar: number): void => {
    if (entrySoFar > entry.size) fail(T.zipSizeMismatch(entry.name));
    budget.used += n;
    if (budget.used > limits.maxKmzUnpackedBytes) fail(T.zipActualTooLarge(limits.maxKmzUnpackedBytes));
  };
  if (entry.method === 0) {
    account(data.length, data.length);
    return data.slice();
  }
  if (entry.method !== 8) return fail(T.zipMethod(entry.name, entry.method));

  const out = new Uint8Array(entry.size);
  let written = 0;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    account(chunk.length, written + chunk.length);
    out.set(chunk, written);
    written += chunk.length;
    if (final) done = true;
  });
  try {
    for (let i = 0; i < data.length; i += SLICE) inflater.push(data.subarray(i, i + SLICE), i + SLICE >= data.length);
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    fail(T.zipCorrupt(entry.name));
  }
  if (!done || written !== entry.size) fail(T.zipCorrupt(entry.name));
  return out;
}

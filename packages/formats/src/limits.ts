import type { Text } from '@nest/contracts';
import { T, fail } from './texts.js';

/**
 * Every imported file is untrusted input. These limits are checked before or while the file is read, so
 * a hostile file costs at most a bounded amount of memory and time and ends in a clear message.
 */
export interface ImportLimits {
  /** Largest file accepted (bytes), checked before anything is decoded. */
  maxFileBytes: number;
  /** Most coordinates (positions) in one file, across all geometries. */
  maxCoordinates: number;
  /** Most XML elements (counted by a cheap scan before parsing). */
  maxXmlElements: number;
  /** Deepest XML element nesting. */
  maxXmlDepth: number;
  /** Deepest JSON nesting (objects and arrays). */
  maxJsonDepth: number;
  /** Most entries in a KMZ (zip) archive. */
  maxKmzEntries: number;
  /** Most bytes a KMZ may unpack to, declared (central directory) and actual (counted while inflating). */
  maxKmzUnpackedBytes: number;
}

export const DEFAULT_LIMITS: Readonly<ImportLimits> = Object.freeze({
  maxFileBytes: 20 * 1024 * 1024,
  maxCoordinates: 200_000,
  maxXmlElements: 1_000_000,
  maxXmlDepth: 100,
  maxJsonDepth: 64,
  maxKmzEntries: 100,
  maxKmzUnpackedBytes: 50 * 1024 * 1024,
});

/** State shared by the readers of one import: limits, warnings, coordinates counted so far. */
export class ReadContext {
  readonly warnings: Text[] = [];
  private coordinates = 0;
  private readonly seen = new Set<string>();
  constructor(
    readonly limits: ImportLimits,
    /** File name without extension: the fallback name of unnamed routes and areas. */
    readonly baseName: string,
    /** Height given to waypoints whose file has none (m). */
    readonly defaultHeight: number,
    /** Role of a polygon the file does not qualify. */
    readonly polygonAs: 'fence' | 'survey',
  ) {}

  /** Count `n` more coordinates; refuses the file past the limit. */
  addCoordinates(n: number): void {
    this.coordinates += n;
    if (this.coordinates > this.limits.maxCoordinates) fail(T.tooManyCoordinates(this.limits.maxCoordinates));
  }

  get coordinateCount(): number {
    return this.coordinates;
  }

  /** Adds a warning once (same English text = same warning). */
  warn(text: Text): void {
    if (this.seen.has(text.en)) return;
    this.seen.add(text.en);
    this.warnings.push(text);
  }
}

/** Refuses a file above the size limit or empty. */
export function checkFileSize(bytes: Uint8Array, limits: ImportLimits): void {
  if (bytes.length > limits.maxFileBytes) fail(T.fileTooLarge(bytes.length, limits.maxFileBytes));
  if (bytes.length === 0) fail(T.emptyFile());
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Bytes to text: BOM first (UTF-8, UTF-16 LE/BE), then the XML declaration's encoding (GBK/GB2312 KML
 * files exist), else UTF-8; text that is not valid UTF-8 is read as GB18030 with a warning (the usual
 * culprit in Chinese files), since GB18030 can decode any byte sequence.
 */
export function decodeText(bytes: Uint8Array, ctx: ReadContext): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const head = String.fromCharCode(...bytes.subarray(0, 200));
  const declared = /^(?:\uFEFF|\xEF\xBB\xBF)?\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) {
    let decoder: InstanceType<typeof TextDecoder>;
    try {
      decoder = new TextDecoder(declared.toLowerCase());
    } catch {
      return fail(T.unknownEncoding(declared));
    }
    return decoder.decode(bytes);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    ctx.warn(T.readAsGb18030());
    return new TextDecoder('gb18030').decode(bytes);
  }
}

/**
 * Index of the `>` that ends the start tag beginning before `from`, skipping quoted attribute values: a
 * `>` or `/>` inside `x="/>"` must not end the tag, or a start tag would pass for self-closing and its
 * nesting go uncounted (deep enough, the readers' tree walks overflow the stack).
 */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let k = from; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 /* " */ || c === 0x27 /* ' */) quote = c;
    else if (c === 0x3e /* > */) return k;
  }
  return -1;
}

/**
 * Cheap pass over XML text before it reaches a parser: refuses any DOCTYPE or ENTITY declaration (no
 * entity expansion, no external entities: billion laughs and XXE never get parsed), and bounds element
 * count and nesting depth. Comments, CDATA and processing instructions are skipped.
 */
export function scanXml(text: string, limits: ImportLimits): void {
  if (/<!\s*(DOCTYPE|ENTITY)/i.test(text)) fail(T.xmlDoctype());
  let elements = 0;
  let depth = 0;
  let i = text.indexOf('<');
  while (i !== -1) {
    const next = text.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        i = end === -1 ? -1 : text.indexOf('<', end + 3);
        continue;
      }
      if (text.startsWith('<![CDATA[', i)) {
        const end = text.indexOf(']]>', i + 9);
        i = end === -1 ? -1 : text.indexOf('<', end + 3);
        continue;
      }
    } else if (next === 0x3f /* ? */) {
      const end = text.indexOf('?>', i + 2);
      i = end === -1 ? -1 : text.indexOf('<', end + 2);
      continue;
    } else if (next === 0x2f /* / */) {
      depth--;
    } else {
      elements++;
      if (elements > limits.maxXmlElements) fail(T.xmlTooManyNodes(limits.maxXmlElements));
      const end = tagEnd(text, i + 1);
      if (end === -1) break;
      if (text.charCodeAt(end - 1) !== 0x2f /* self-closing */) {
        depth++;
        if (depth > limits.maxXmlDepth) fail(T.xmlTooDeep(limits.maxXmlDepth));
      }
      i = text.indexOf('<', end + 1);
      continue;
    }
    i = text.indexOf('<', i + 1);
  }
}

/**
 * Parses JSON after bounding its nesting depth (a deep `[[[[...` would otherwise exhaust the parser's
 * stack). Strings are skipped so brackets inside them do not count.
 */
export function parseJsonSafe(text: string, limits: ImportLimits): unknown {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limits.maxJsonDepth) fail(T.jsonTooDeep(limits.maxJsonDepth));
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (e) {
    return fail(T.jsonMalformed(e instanceof Error ? e.message : String(e)));
  }
}

/** A finite latitude/longitude in range, or a message naming `where`. */
export function checkLatLng(lat: number, lng: number, where: string): void {
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) fail(T.badNumber(where, `${lng},${lat}`));
  if (lat < -90 || lat > 90) fail(T.latOutOfRange(where, lat));
  if (lng < -180 || lng > 180) fail(T.lngOutOfRange(where, lng));
}

/** A file-supplied number that must be finite, or undefined when absent / not a number. */
export const finiteOrUndefined = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** Names from files: trimmed, whitespace collapsed, at most 64 characters (the contracts' name limit). */
export const cleanName = (v: unknown, fallback: string): string => {
  const s = typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '';
  return (s || fallback).slice(0, 64);
};

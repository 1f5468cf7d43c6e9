/**
 * The `.wkimg` nest firmware package (SPEC section 5: "Firmware file must be .wkimg"; its content is ours
 * to define). Everything a server or a device needs to refuse a wrong file before flashing it:
 *
 * | offset | bytes | content |
 * |---|---|---|
 * | 0 | 8 | magic `WKIMG01\n` |
 * | 8 | 4 | header length H, unsigned big-endian, 2..WKIMG_MAX_HEADER |
 * | 12 | H | header: UTF-8 JSON `{type, version_code, version_name, model, payload_size, payload_sha256}` |
 * | 12+H | payload_size | the image itself |
 *
 * Nothing may follow the payload. The payload digest is checked by the caller with its own SHA-256 (node
 * crypto on the server and the simulator) so this module stays free of platform APIs.
 */

export const WKIMG_MAGIC = 'WKIMG01\n';
export const WKIMG_MAX_HEADER = 4096;
const PREFIX = 12;

export interface WkimgHeader {
  /** FirmwareType (17: nest). */
  type: number;
  version_code: number;
  version_name: string;
  /** The device model the image is built for ('' for any). */
  model: string;
  payload_size: number;
  /** Lower-case hex SHA-256 of the payload. */
  payload_sha256: string;
}

export type WkimgProblem = 'magic' | 'header' | 'size';
export type WkimgParse = { ok: true; header: WkimgHeader; payloadOffset: number } | { ok: false; problem: WkimgProblem };

const MAGIC_BYTES = new TextEncoder().encode(WKIMG_MAGIC);

/** Whether the bytes start like a .wkimg (enough for a browser's quick check of a chosen file's first 8 bytes). */
export function hasWkimgMagic(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC_BYTES.length) return false;
  return MAGIC_BYTES.every((b, i) => bytes[i] === b);
}

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function headerOf(json: unknown): WkimgHeader | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const h = json as Record<string, unknown>;
  if (!isInt(h.type, 0, 1000) || !isInt(h.version_code, 0, 2_147_483_647)) return null;
  if (typeof h.version_name !== 'string' || h.version_name.length < 1 || h.version_name.length > 32) return null;
  const model = h.model === undefined ? '' : h.model;
  if (typeof model !== 'string' || model.length > 64) return null;
  if (!isInt(h.payload_size, 1, Number.MAX_SAFE_INTEGER)) return null;
  if (typeof h.payload_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(h.payload_sha256)) return null;
  return {
    type: h.type,
    version_code: h.version_code,
    version_name: h.version_name,
    model,
    payload_size: h.payload_size,
    payload_sha256: h.payload_sha256,
  };
}

/**
 * Reads the structure of a whole package: magic, header and exact length. `head` may be only the first
 * bytes when `totalSize` gives the full length (a server reading a stored file's start).
 */
export function parseWkimg(head: Uint8Array, totalSize: number = head.length): WkimgParse {
  if (!hasWkimgMagic(head)) return { ok: false, problem: 'magic' };
  if (head.length < PREFIX) return { ok: false, problem: 'header' };
  const length = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(8, false);
  if (length < 2 || length > WKIMG_MAX_HEADER || head.length < PREFIX + length) return { ok: false, problem: 'header' };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(PREFIX, PREFIX + length)));
  } catch {
    return { ok: false, problem: 'header' };
  }
  const header = headerOf(json);
  if (!header) return { ok: false, problem: 'header' };
  if (PREFIX + length + header.payload_size !== totalSize) return { ok: false, problem: 'size' };
  return { ok: true, header, payloadOffset: PREFIX + length };
}

/** Builds a package (tests, the demo fleet's sample firmware, tools). `sha256Hex` is the caller's digest. */
export function buildWkimg(
  header: Omit<WkimgHeader, 'payload_size' | 'payload_sha256'>,
  payload: Uint8Array,
  sha256Hex: (bytes: Uint8Array) => string,
): Uint8Array {
  const full: WkimgHeader = { ...header, payload_size: payload.length, payload_sha256: sha256Hex(payload) };
  const json = new TextEncoder().encode(JSON.stringify(full));
  const out = new Uint8Array(PREFIX + json.length + payload.length);
  out.set(MAGIC_BYTES, 0);
  new DataView(out.buffer).setUint32(8, json.length, false);
  out.set(json, PREFIX);
  out.set(payload, PREFIX + json.length);
  return out;
}

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { WKIMG_MAX_HEADER, parseWkimg, type WkimgHeader, type WkimgProblem } from '@nest/formats';

/**
 * Firmware packages are the media store's `firmware/<file_key>` (DATA_DIR/firmware/<file_key> in the local
 * store; a random name: the uploader's name is only shown).
 */
export const firmwareKey = (fileKey: string): string => `firmware/${fileKey}`;
/** A stored package's key: a uuid with the extension (served as application/octet-stream). */
export const FILE_KEY_PATTERN = /^[0-9a-f-]{36}\.wkimg$/;

export type PackageProblem = WkimgProblem | 'digest';

export type PackageCheck =
  | { ok: true; header: WkimgHeader; size: number; md5: string; sha256: string }
  | { ok: false; problem: PackageProblem };

/**
 * Checks a received file as a .wkimg package: structure (magic, header, exact length) from its first
 * bytes, then one pass over the whole file for the MD5 and SHA-256 of the file (recorded) and the SHA-256
 * of the payload, which must equal the header's.
 */
export async function checkPackage(file: string): Promise<PackageCheck> {
  const fh = await open(file, 'r');
  let size: number;
  let head: Buffer;
  try {
    size = (await fh.stat()).size;
    head = Buffer.alloc(Math.min(size, 12 + WKIMG_MAX_HEADER));
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  const parsed = parseWkimg(head, size);
  if (!parsed.ok) return parsed;
  const md5 = createHash('md5');
  const whole = createHash('sha256');
  const payload = createHash('sha256');
  let at = 0;
  for await (const chunk of createReadStream(file)) {
    const buf = chunk as Buffer;
    md5.update(buf);
    whole.update(buf);
    const skip = Math.max(0, parsed.payloadOffset - at);
    if (skip < buf.length) payload.update(skip === 0 ? buf : buf.subarray(skip));
    at += buf.length;
  }
  if (payload.digest('hex') !== parsed.header.payload_sha256) return { ok: false, problem: 'digest' };
  return { ok: true, header: parsed.header, size, md5: md5.digest('hex'), sha256: whole.digest('hex') };
}

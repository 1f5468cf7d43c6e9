import { FIRMWARE_MAX_BYTES, isFirmwareFileName } from '@nest/contracts';
import { WKIMG_MAX_HEADER, hasWkimgMagic, parseWkimg, type WkimgHeader } from '@nest/formats';

export type FirmwareFileProblem = 'name' | 'empty' | 'tooLarge' | 'magic' | 'header' | 'size';
export type FirmwareFileCheck = { ok: true; header: WkimgHeader } | { ok: false; problem: FirmwareFileProblem };

/** Bytes of a package's start that hold the magic, the length and the longest header. */
const HEAD_BYTES = 12 + WKIMG_MAX_HEADER;

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  // Blob.arrayBuffer is missing in some test DOMs; FileReader works everywhere.
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * The browser's check of a chosen firmware file before anything is sent: the name (.wkimg), the size
 * limit, the first bytes (hasWkimgMagic), then the header and the exact length (parseWkimg on the start,
 * with the file's size). The payload digest is the server's to check (it reads the whole file anyway).
 * The header lets the dialog fill in the type and version.
 */
export async function checkFirmwareFile(file: File, maxBytes: number = FIRMWARE_MAX_BYTES): Promise<FirmwareFileCheck> {
  if (!isFirmwareFileName(file.name)) return { ok: false, problem: 'name' };
  if (file.size === 0) return { ok: false, problem: 'empty' };
  if (file.size > maxBytes) return { ok: false, problem: 'tooLarge' };
  const head = await bytesOf(file.slice(0, HEAD_BYTES));
  if (!hasWkimgMagic(head)) return { ok: false, problem: 'magic' };
  const parsed = parseWkimg(head, file.size);
  return parsed.ok ? { ok: true, header: parsed.header } : { ok: false, problem: parsed.problem };
}

/** Megabytes for the size-limit text (whole MB). */
export const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

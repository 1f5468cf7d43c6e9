import { FIRMWARE_MAX_BYTES, isFirmwareFileName } from '@nest/contracts';
import { basicFileProblem, headBytes, megabytes } from '../../shared/admin';
import { WKIMG_MAX_HEADER, hasWkimgMagic, parseWkimg, type WkimgHeader } from '@nest/formats';

export type FirmwareFileProblem = 'name' | 'empty' | 'tooLarge' | 'magic' | 'header' | 'size';
export type FirmwareFileCheck = { ok: true; header: WkimgHeader } | { ok: false; problem: FirmwareFileProblem };

/** Bytes of a package's start that hold the magic, the length and the longest header. */
const HEAD_BYTES = 12 + WKIMG_MAX_HEADER;

/**
 * The browser's check of a chosen firmware file before anything is sent: the name (.wkimg), the size
 * limit, the first bytes (hasWkimgMagic), then the header and the exact length (parseWkimg on the start,
 * with the file's size). The payload digest is the server's to check (it reads the whole file anyway).
 * The header lets the dialog fill in the type and version.
 */
export async function checkFirmwareFile(file: File, maxBytes: number = FIRMWARE_MAX_BYTES): Promise<FirmwareFileCheck> {
  const basic = basicFileProblem(file, isFirmwareFileName, maxBytes);
  if (basic) return { ok: false, problem: basic };
  const head = await headBytes(file, HEAD_BYTES);
  if (!hasWkimgMagic(head)) return { ok: false, problem: 'magic' };
  const parsed = parseWkimg(head, file.size);
  return parsed.ok ? { ok: true, header: parsed.header } : { ok: false, problem: parsed.problem };
}

export { megabytes };

import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEST_FIRMWARE_TYPE } from '@nest/contracts';
import { buildWkimg } from '@nest/formats';

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export interface SampleOptions {
  type?: number;
  versionCode?: number;
  versionName?: string;
  model?: string;
  /** Payload length in bytes (random content). */
  payloadBytes?: number;
}

/** A valid .wkimg package with a random payload (manual tests, server tests). */
export function samplePackage(opts: SampleOptions = {}): Uint8Array {
  const payload = randomBytes(opts.payloadBytes ?? 64 * 1024);
  return buildWkimg(
    {
      type: opts.type ?? NEST_FIRMWARE_TYPE,
      version_code: opts.versionCode ?? 1,
      version_name: opts.versionName ?? `1.0.${opts.versionCode ?? 1}`,
      model: opts.model ?? '',
    },
    payload,
    sha256Hex,
  );
}

const USAGE = `usage: node --import tsx apps/server/src/firmware/sample.ts <out.wkimg> [version_code] [payload KiB] [type]
Writes a valid nest firmware package (random payload) for trying /rom/add by hand.`;

async function main(argv: string[]): Promise<number> {
  const [out, code, kib, type] = argv;
  if (!out || out === '-h' || out === '--help') {
    process.stderr.write(`${USAGE}\n`);
    return out ? 0 : 2;
  }
  const versionCode = code === undefined ? 1 : Number(code);
  const payloadKib = kib === undefined ? 64 : Number(kib);
  const fwType = type === undefined ? NEST_FIRMWARE_TYPE : Number(type);
  if (![versionCode, payloadKib, fwType].every((n) => Number.isInteger(n) && n >= 0) || payloadKib < 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const bytes = samplePackage({ type: fwType, versionCode, payloadBytes: payloadKib * 1024 });
  await writeFile(out, bytes);
  process.stdout.write(`${out}: type ${fwType}, version_code ${versionCode}, ${bytes.length} bytes\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Broker credentials, generated once per data directory and kept in DATA_DIR/keys (mode 0600):
 * - `device.key`: 32 random bytes (hex). A device's broker password is devicePassword(key hex, sn), so the
 *   server never stores per-device passwords and a registered device's password can always be printed
 *   again (CLI `device-secret <sn>`). Replacing the file changes every device password.
 * - `mqtt-server.secret`: the password of the server's own broker user (`nest-server`), unless
 *   MQTT_PASSWORD gives one (external broker).
 */
export interface LinkSecrets {
  /** The device key as 64 hex digits (what `--password-secret` of the simulator takes). */
  deviceKeyHex: string;
  serverPassword: string;
}

export const deviceKeyFile = (dataDir: string): string => path.join(dataDir, 'keys', 'device.key');
export const serverSecretFile = (dataDir: string): string => path.join(dataDir, 'keys', 'mqtt-server.secret');

async function loadOrCreate(file: string, create: () => string, valid: (s: string) => boolean): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const text = (await readFile(file, 'utf8')).trim();
    if (!valid(text)) throw new Error(`${file} is damaged; remove it to generate a new one (devices then need new passwords)`);
    await chmod(file, 0o600);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = create();
  try {
    // 'wx': another process (CLI, a second server on the same dir) may have written it meanwhile.
    await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return (await readFile(file, 'utf8')).trim();
  }
}

export async function loadOrCreateLinkSecrets(dataDir: string): Promise<LinkSecrets> {
  const deviceKeyHex = await loadOrCreate(
    deviceKeyFile(dataDir),
    () => randomBytes(32).toString('hex'),
    (s) => /^[0-9a-f]{64}$/.test(s),
  );
  const serverPassword = await loadOrCreate(
    serverSecretFile(dataDir),
    () => randomBytes(32).toString('base64url'),
    (s) => /^[A-Za-z0-9_-]{20,}$/.test(s),
  );
  return { deviceKeyHex, serverPassword };
}

/** The broker password of device `sn`: HMAC-SHA256 keyed with the device key (hex text), hex digest. */
export function devicePassword(deviceKeyHex: string, sn: string): string {
  return createHmac('sha256', deviceKeyHex).update(sn).digest('hex');
}

/** Constant-time comparison of a presented password with the expected one. */
export function samePassword(presented: Buffer | string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.isBuffer(presented) ? presented : Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  // Compare equal-length buffers always, so the time does not tell the length either.
  const padded = Buffer.alloc(b.length);
  a.copy(padded, 0, 0, Math.min(a.length, b.length));
  return timingSafeEqual(padded, b) && a.length === b.length;
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DeviceProtocol, RecordState } from '@nest/contracts';
import type { DeviceRow } from '../db/schema.js';

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

/**
 * The broker password of a DJI Cloud API gateway (a DJI dock, or Pilot 2 as gateway) of generation `gen`:
 * HMAC-SHA256 keyed with the device key over the sn and the generation, its first 32 hex digits (128 bits:
 * URL-safe, no character a shell or Pilot 2's set-up form could misread). It is shown once when the device is added or its credentials are re-issued; the
 * server stores only the generation (devices.secret_gen), so raising it makes the previous password
 * useless.
 */
export function djiPassword(deviceKeyHex: string, sn: string, gen: number): string {
  return createHmac('sha256', deviceKeyHex).update(`dji\n${sn}\n${gen}`).digest('hex').slice(0, 32);
}

/** What the login check needs of a registered device. */
export type DeviceAccount = Pick<DeviceRow, 'protocol' | 'secret_gen' | 'uav_sn' | 'enabled' | 'state'>;

/** The broker password a registered device logs in with now: per protocol (and generation for DJI). */
export function currentPassword(deviceKeyHex: string, sn: string, account: Pick<DeviceRow, 'protocol' | 'secret_gen'>): string {
  return Number(account.protocol) === DeviceProtocol.DJI ? djiPassword(deviceKeyHex, sn, Number(account.secret_gen)) : devicePassword(deviceKeyHex, sn);
}

/** A device let in by the broker: its protocol decides its topics (a DJI gateway's also name its drone). */
export interface DeviceLogin {
  protocol: number;
  /** The registered drone sn of a DJI gateway ('' when none). */
  droneSn: string;
}

/**
 * The broker's login decision for a device user: the device must be registered, enabled and not deleted,
 * and present its current password (timing-safe). `find` reads the registry (the database, so a device
 * registered a moment ago by the CLI or another instance can log in at once).
 */
export function deviceLoginCheck(deviceKeyHex: string, find: (sn: string) => Promise<DeviceAccount | undefined>) {
  return async (sn: string, password: Buffer): Promise<DeviceLogin | null> => {
    const row = await find(sn);
    const expected = currentPassword(deviceKeyHex, sn, row ?? { protocol: DeviceProtocol.NEST, secret_gen: 0 });
    const ok = samePassword(password, expected);
    const admitted = row !== undefined && Number(row.enabled) === 1 && Number(row.state) === RecordState.NORMAL;
    return ok && admitted ? { protocol: Number(row.protocol), droneSn: row.uav_sn } : null;
  };
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

import { RecordState, isDeviceSn } from '@nest/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { findDeviceBySn } from './store.js';
import { samePassword } from '../link/credentials.js';
import type { DeviceRow } from '../db/schema.js';

/** `Authorization: Basic base64(sn:password)` split, or null. */
export function basicCredentials(header: string | undefined): { sn: string; password: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { sn: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * The device behind a request: the password (the broker password, HMAC of the sn) compared in constant
 * time, and the device registered, live and enabled. The password is checked before the lookup result is
 * used, so an unknown sn and a wrong password cost the same.
 */
export async function authenticateDevice(deps: AppDeps, request: FastifyRequest): Promise<DeviceRow | null> {
  const cred = basicCredentials(request.headers.authorization);
  // Only what could be a device's sn reaches the database (a NUL in it would end the call in an error).
  if (!cred || !isDeviceSn(cred.sn)) return null;
  const ok = samePassword(cred.password, deps.live.devicePassword(cred.sn));
  const row = deps.live.directory.get(cred.sn) ?? (await findDeviceBySn(deps.db, cred.sn));
  if (!ok || !row || Number(row.enabled) !== 1 || Number(row.state) !== RecordState.NORMAL) return null;
  return row;
}

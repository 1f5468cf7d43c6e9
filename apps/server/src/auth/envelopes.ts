import { PASSWORD_REFUSALS, ResultCode, TIMESTAMP_WINDOW_MS, type Lang, type PasswordEnvelopeContent } from '@nest/contracts';
import type { Kysely } from 'kysely';
import { CallError, textMessage, type Message } from '../calls/errors.js';
import type { DB } from '../db/schema.js';
import { isCommonPassword } from './common-passwords.js';
import type { KeyPair } from './keys.js';
import { openPasswordEnvelope, passwordLengthOk } from './passwords.js';

const refusal =
  (key: keyof typeof PASSWORD_REFUSALS): Message =>
  (lang: Lang) =>
    PASSWORD_REFUSALS[key][lang];

/** Refusals of password envelopes and new passwords, in both console languages (contracts password.ts). */
export const ENVELOPE_TEXTS = {
  mismatch: refusal('mismatch'),
  stale: refusal('stale'),
  replayed: refusal('replayed'),
  common: refusal('common'),
} as const;

/**
 * Nonces are kept for twice the clock window after their envelope's timestamp: past one window every
 * instance refuses the envelope as out of date by its own clock, the second covers instances whose clocks
 * run up to one window behind.
 */
const NONCE_KEEP_MS = 2 * TIMESTAMP_WINDOW_MS;

/**
 * Opens a password envelope sent with a request and checks that it belongs to that request (contracts
 * password.ts): its `t` is the request's os_timestamp and within the clock window of now, and its nonce
 * was not accepted before (by any instance on this database). Unusable envelopes answer DECRYPT_FAILED,
 * the other refusals STALE_TIMESTAMP with a message saying which; a refusal records nothing. An accepted
 * nonce is recorded at once (one atomic insert: two requests racing with the same envelope cannot both
 * pass), and expired nonces are deleted on the way.
 */
export async function openRequestEnvelope(
  db: Kysely<DB>,
  pair: KeyPair,
  envelope: string,
  osTimestamp: string | undefined,
  now: number = Date.now(),
): Promise<PasswordEnvelopeContent> {
  const secret = openPasswordEnvelope(pair, envelope);
  if (!secret) throw new CallError(ResultCode.DECRYPT_FAILED);
  if (osTimestamp === undefined || !/^\d{1,16}$/.test(osTimestamp) || Number(osTimestamp) !== secret.t) {
    throw new CallError(ResultCode.STALE_TIMESTAMP, ENVELOPE_TEXTS.mismatch);
  }
  if (Math.abs(now - secret.t) > TIMESTAMP_WINDOW_MS) throw new CallError(ResultCode.STALE_TIMESTAMP, ENVELOPE_TEXTS.stale);
  await db.deleteFrom('password_nonces').where('expires_at', '<', now).execute();
  const recorded = await db
    .insertInto('password_nonces')
    .values({ nonce: secret.r, expires_at: secret.t + NONCE_KEEP_MS })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst();
  if (!recorded) throw new CallError(ResultCode.STALE_TIMESTAMP, ENVELOPE_TEXTS.replayed);
  return secret;
}

/**
 * The checks of a new password (user add, password set by an administrator, own password change; not
 * sign-in) that the server can make without seeing it: the declared length (6-32), and the list of the most
 * common passwords (common-passwords.ts, by hash). Anything else about the password (its characters, its
 * real length) only the browser checks.
 */
export function checkNewPassword(secret: PasswordEnvelopeContent): void {
  if (!passwordLengthOk(secret.n)) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.password.length'));
  if (isCommonPassword(secret)) throw new CallError(ResultCode.PASSWORD_COMMON, ENVELOPE_TEXTS.common);
}

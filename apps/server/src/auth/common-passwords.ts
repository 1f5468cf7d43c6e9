import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PasswordEnvelopeContent } from '@nest/contracts';

/**
 * The most common passwords (common-passwords.txt beside this file: about ten thousand, lower case), which
 * the server refuses as a new password. The server never sees a password, only the hashes in its envelope
 * (contracts password.ts), so the list is kept as hashes:
 * - `d`, the SHA-256 of the password as typed, against the SHA-256 of each entry: a verified match (the
 *   stored hash derives from `d`), for passwords typed exactly as listed;
 * - `c`, the first 128 bits of the SHA-256 of the lower-cased password, against the same of each entry:
 *   catches "Password1" and "QWERTY123" too, but `c` is declared by the client, which the server cannot
 *   tie to `d`: a client of its own making can pass this half of the check, as it can lie about the length.
 * Read and hashed once, on first use (a few milliseconds).
 */
interface CommonHashes {
  exact: ReadonlySet<string>;
  folded: ReadonlySet<string>;
}

let hashes: CommonHashes | null = null;

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The entries of the list (comment lines start with '#'). */
export function commonPasswords(): string[] {
  const text = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}

function load(): CommonHashes {
  if (!hashes) {
    const exact = new Set<string>();
    const folded = new Set<string>();
    for (const entry of commonPasswords()) {
      exact.add(sha256Hex(entry));
      folded.add(sha256Hex(entry.toLowerCase()).slice(0, 32));
    }
    hashes = { exact, folded };
  }
  return hashes;
}

/** Whether an envelope's password is one of the common ones (exactly, or but for letter case). */
export function isCommonPassword(secret: Pick<PasswordEnvelopeContent, 'd' | 'c'>): boolean {
  const { exact, folded } = load();
  return exact.has(secret.d) || folded.has(secret.c);
}

import { PUBLIC_KEYS_PATH, publicKeysSchema, sealPassword, type PublicKeys } from '@nest/contracts';

let cached: Promise<PublicKeys> | null = null;

/** The server's public keys, fetched once per page and cached (a failed fetch is retried next time). */
export function publicKeys(): Promise<PublicKeys> {
  if (!cached) {
    cached = fetch(PUBLIC_KEYS_PATH, { cache: 'no-cache' })
      .then(async (res) => {
        if (!res.ok) throw new Error(`public keys: HTTP ${res.status}`);
        return publicKeysSchema.parse(await res.json());
      })
      .catch((err: unknown) => {
        cached = null;
        throw err;
      });
  }
  return cached;
}

/**
 * Seals a password with the `password` public key (SPEC: passwords are encrypted before sending), bound to
 * one request: `timestamp` is the os_timestamp that request will carry (take one with `requestStamp()` and
 * pass it to `call` as its `timestamp` option); the server refuses the envelope with any other request.
 */
export async function sealWithPasswordKey(password: string, timestamp: number): Promise<string> {
  return sealPassword(password, (await publicKeys()).password, timestamp);
}

/** The os_timestamp (ms) of a request about to be built: now. */
export const requestStamp = (): number => Date.now();

/** For tests. */
export function resetPublicKeys(keys?: PublicKeys): void {
  cached = keys ? Promise.resolve(keys) : null;
}

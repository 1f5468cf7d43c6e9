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

/** Seals a password with the `password` public key (SPEC: passwords are encrypted before sending). */
export async function sealWithPasswordKey(password: string): Promise<string> {
  return sealPassword(password, (await publicKeys()).password);
}

/** For tests. */
export function resetPublicKeys(keys?: PublicKeys): void {
  cached = keys ? Promise.resolve(keys) : null;
}

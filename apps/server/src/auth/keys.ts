import { constants, createPrivateKey, createPublicKey, generateKeyPair, privateDecrypt } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PublicKeyName, PublicKeys } from '@nest/contracts';
import type { KeyPair, ServerKeys } from '../deps.js';

const generate = promisify(generateKeyPair);

export type { KeyPair, ServerKeys } from '../deps.js';

export const KEY_NAMES: readonly PublicKeyName[] = ['password', 'licence'];
export const keyFile = (dataDir: string, name: PublicKeyName): string => path.join(dataDir, 'keys', `${name}.pem`);

function pairOf(pem: string): KeyPair {
  const privateKey = createPrivateKey(pem);
  const publicSpki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  return { privateKey, publicSpki };
}

async function loadOrCreate(dataDir: string, name: PublicKeyName): Promise<KeyPair> {
  const file = keyFile(dataDir, name);
  try {
    const pem = await readFile(file, 'utf8');
    await chmod(file, 0o600);
    return pairOf(pem);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { privateKey } = await generate('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  try {
    // 'wx': never overwrite a key another process wrote meanwhile; use that one instead.
    await writeFile(file, pem, { mode: 0o600, flag: 'wx' });
    return pairOf(pem);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return pairOf(await readFile(file, 'utf8'));
  }
}

/**
 * The two RSA-2048 key pairs (`password` for password envelopes, `licence` for push verification), kept as
 * PKCS#8 PEM in DATA_DIR/keys (mode 0600): generated on first start, reused afterwards.
 */
export async function loadOrCreateKeys(dataDir: string): Promise<ServerKeys> {
  await mkdir(path.join(dataDir, 'keys'), { recursive: true, mode: 0o700 });
  const [password, licence] = await Promise.all(KEY_NAMES.map((n) => loadOrCreate(dataDir, n)));
  return { password: password!, licence: licence! };
}

export const publicKeysOf = (keys: ServerKeys): PublicKeys => ({
  password: keys.password.publicSpki,
  licence: keys.licence.publicSpki,
});

/** RSA-OAEP (SHA-256) decryption of a base64 cipher text; null when it cannot be decrypted. */
export function decryptOaep(pair: KeyPair, base64: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  try {
    return privateDecrypt(
      { key: pair.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(base64, 'base64'),
    ).toString('utf8');
  } catch {
    return null;
  }
}

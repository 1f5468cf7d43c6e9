import type { Readable } from 'node:stream';
import type { Text } from '@nest/contracts';

/**
 * Where finished media live: results and thumbnails, recordings, firmware packages, teaching videos, nest
 * logs. Keys are relative paths with `/` separators and the same layout in every implementation
 * (`media/results/<yyyy-mm>/<uuid>.jpg`, `firmware/<uuid>.wkimg`, ...), so a local DATA_DIR can be copied
 * into a bucket as it is (docs/deployment.md, "Media storage"). Uploads in progress stay local temp files;
 * only a finished, verified file is put.
 */
export interface MediaStore {
  readonly kind: 'local' | 's3';
  /**
   * Stores a finished local file under `key` (replacing any object there). Readers never see half an
   * object. `move`: the source file is gone afterwards (a rename when it can be); on failure the source is
   * kept and nothing is left under `key`.
   */
  putFile(key: string, file: string, opts?: PutOptions): Promise<void>;
  /** Stores bytes under `key`, like putFile. */
  putBytes(key: string, data: Uint8Array, opts?: PutOptions): Promise<void>;
  /** Size, ETag and modification time, or null when there is no such object. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** The bytes (or `range`, inclusive) of an object; NoSuchObject when it is missing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes an object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix/` (a recording's folder). */
  deletePrefix(prefix: string): Promise<void>;
  /** Keys under `prefix/`, sorted (tests and tooling; not for request paths). */
  list(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface PutOptions {
  contentType?: string;
  move?: boolean;
}

export interface ObjectInfo {
  size: number;
  /** A strong ETag with its quotes, e.g. `"5eb6..."`. */
  etag: string;
  modified: Date;
}

/** Bytes `start` to `end`, both included (HTTP Range semantics). */
export interface ByteRange {
  start: number;
  end: number;
}

export class NoSuchObject extends Error {
  override name = 'NoSuchObject';
  constructor(readonly key: string) {
    super(`no object ${key}`);
  }
}

/** Segments of letters, digits, `.`, `_`, `-`, none starting with a dot (so no `..`, no hidden files). */
const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,199})(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}){0,9}$/;

export const isValidKey = (key: string): boolean => KEY.test(key);

/** Throws unless `key` is a safe relative key: no implementation ever resolves anything outside its root. */
export function checkKey(key: string): string {
  if (!isValidKey(key)) throw new Error(`invalid media key ${JSON.stringify(key)}`);
  return key;
}

/**
 * Errors that mean "no space left": the local disk (ENOSPC, EDQUOT, EFBIG) or an object store that refuses
 * for lack of room or quota. Callers answer them with STORAGE_FULL_TEXT rather than a bare server error.
 */
export function isStorageFull(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  if (!e) return false;
  if (e.code === 'ENOSPC' || e.code === 'EDQUOT' || e.code === 'EFBIG') return true;
  const name = String(e.name ?? e.Code ?? '');
  return name === 'QuotaExceeded' || name === 'XMinioStorageFull' || name === 'InsufficientStorage' || e.$metadata?.httpStatusCode === 507;
}

export const STORAGE_FULL_TEXT: Text = {
  zh: '服务器存储空间不足，文件未保存，请释放空间后重试',
  en: 'The server is out of storage space: the file was not saved. Free some space and try again',
};

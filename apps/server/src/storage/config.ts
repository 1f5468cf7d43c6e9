import { ConfigError } from '../config-error.js';
import type { S3Settings } from './s3.js';

/** MEDIA_STORE and the S3_* settings (config.ts lists them). */
export type MediaStoreConfig = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

type Env = Readonly<Record<string, string | undefined>>;
const S3_VARS = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_PREFIX', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;
/** S3 bucket naming rules (3-63 lower-case letters, digits, dots, hyphens; starts and ends alphanumeric). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

const get = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/**
 * Reads the media store settings. Invalid combinations stop start-up with one line: S3_* settings without
 * MEDIA_STORE=s3 (a deployment that thinks it shares media but does not), s3 without a bucket, one of the
 * two keys without the other, a malformed endpoint, bucket or prefix.
 */
export function mediaStoreConfig(env: Env): MediaStoreConfig {
  const kind = get(env, 'MEDIA_STORE') ?? 'local';
  if (kind !== 'local' && kind !== 's3') throw new ConfigError(`MEDIA_STORE must be local or s3 (got "${kind}")`);
  if (kind === 'local') {
    const stray = S3_VARS.filter((v) => get(env, v) !== undefined);
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set but MEDIA_STORE is local (set MEDIA_STORE=s3 or unset them)`);
    return { kind };
  }
  const bucket = get(env, 'S3_BUCKET');
  if (!bucket) throw new ConfigError('MEDIA_STORE=s3 needs S3_BUCKET');
  if (!BUCKET.test(bucket)) throw new ConfigError(`S3_BUCKET must be a valid bucket name (3-63 lower-case letters, digits, . and -) (got "${bucket}")`);
  const endpoint = get(env, 'S3_ENDPOINT') ?? null;
  if (endpoint !== null) {
    const u = URL.canParse(endpoint) ? new URL(endpoint) : null;
    const ok = u !== null && (u.protocol === 'http:' || u.protocol === 'https:') && u.pathname === '/' && !u.search;
    if (!ok) throw new ConfigError(`S3_ENDPOINT must be an http(s) URL without a path, e.g. https://s3.example.com:9000 (got "${endpoint}")`);
  }
  const accessKeyId = get(env, 'S3_ACCESS_KEY_ID') ?? null;
  const secretAccessKey = get(env, 'S3_SECRET_ACCESS_KEY') ?? null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the SDK default credentials)');
  const prefix = (get(env, 'S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !PREFIX.test(prefix)) throw new ConfigError(`S3_PREFIX must be path segments of letters, digits, . _ - (got "${env.S3_PREFIX}")`);
  const pathStyle = get(env, 'S3_FORCE_PATH_STYLE');
  if (pathStyle !== undefined && !['true', 'false'].includes(pathStyle)) throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}")`);
  return {
    kind,
    endpoint,
    region: get(env, 'S3_REGION') ?? 'us-east-1',
    bucket,
    prefix,
    accessKeyId,
    secretAccessKey,
    // A custom endpoint (MinIO and friends) usually has no per-bucket DNS names.
    forcePathStyle: pathStyle === undefined ? endpoint !== null : pathStyle === 'true',
  };
}

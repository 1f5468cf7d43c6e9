/**
 * The DJI side of result uploads: the answer to a dock's `storage_config_get` (module 0, media), built from
 * the upload ingest the dock can reach, with temporary credentials scoped to that dock's object prefix.
 * The ingest is passed in as an interface so this adapter module does not depend on the storage code.
 */
export interface DockUploadIssuer {
  issue(owner: string, prefix: string, ttlSeconds: number): { accessKeyId: string; secret: string; sessionToken: string; expire: number };
}

export interface DjiMediaOptions {
  /** The ingest's S3 endpoint as docks reach it, e.g. `${deviceHttpBase}/s3`. */
  endpoint: string;
  bucket: string;
  region: string;
  issuer: DockUploadIssuer;
  /** How long issued credentials last (seconds); DJI docks ask again when they expire. */
  ttlSeconds?: number;
}

/** The object prefix a dock may write under: its own folder, so one dock cannot overwrite another's files. */
export const dockObjectPrefix = (sn: string): string => `dji/${sn.replace(/[^A-Za-z0-9_-]/g, '_')}/`;

/** The `output` of a successful `storage_config_get` reply for dock `sn`. */
export function storageConfigOutput(sn: string, opts: DjiMediaOptions) {
  const prefix = dockObjectPrefix(sn);
  const issued = opts.issuer.issue(sn, prefix, opts.ttlSeconds ?? 3600);
  return {
    bucket: opts.bucket,
    endpoint: opts.endpoint,
    provider: 'minio',
    region: opts.region,
    object_key_prefix: prefix.replace(/\/$/, ''),
    credentials: {
      access_key_id: issued.accessKeyId,
      access_key_secret: issued.secret,
      security_token: issued.sessionToken,
      expire: issued.expire,
    },
  };
}

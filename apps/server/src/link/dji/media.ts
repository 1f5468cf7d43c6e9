/**
 * The DJI side of result uploads: the answer to a dock's `storage_config_get` (module 0, media), built from
 * the upload ingest the dock can reach, with temporary credentials scoped to that dock's object prefix;
 * and the dock's `file_upload_callback` as the neutral `media.stored` event (the media feature makes the
 * result), answered with a refusal code when the file cannot become one.
 * The ingest is passed in as an interface so this adapter module does not depend on the storage code.
 */
import { DjiResult, djiFileUploadCallback, isEventRefusal, mediaStoredEvent, type EventRefusal, type MediaStoredEvent } from '@nest/contracts';

export interface DockUploadIssuer {
  issue(owner: string, prefix: string, ttlSeconds: number): { accessKeyId: string; secret: string; sessionToken: string; expire: number };
}

export interface DjiMediaOptions {
  /** The ingest's S3 endpoint as docks reach it, e.g. `${deviceHttpBase}/s3` (a function when known only once the server listens). */
  endpoint: string | (() => string);
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
    endpoint: typeof opts.endpoint === 'function' ? opts.endpoint() : opts.endpoint,
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

const MIME_OF: Record<string, { mime: 'image/jpeg' | 'video/mp4'; type: 10 | 20 }> = {
  jpg: { mime: 'image/jpeg', type: 10 },
  jpeg: { mime: 'image/jpeg', type: 10 },
  mp4: { mime: 'video/mp4', type: 20 },
};

/**
 * A dock's `file_upload_callback` as the contracts `media.stored` event of dock `sn`, or the refusal it
 * gets at once: unreadable data, an object outside the dock's own prefix, a type that cannot be a result.
 * `at` (ms) stands in for a missing or unreadable `created_time`.
 */
export function mediaStoredOf(sn: string, droneSn: string, data: unknown, at: number): MediaStoredEvent | EventRefusal {
  const cb = djiFileUploadCallback.safeParse(data ?? {});
  if (!cb.success) return { refused: 'bad_data' };
  const file = cb.data.file;
  const key = file.object_key.replace(/^\/+/, '');
  if (!key.startsWith(dockObjectPrefix(sn)) || key.split('/').some((s) => s === '' || s.startsWith('.'))) return { refused: 'outside_prefix' };
  const base = key.slice(key.lastIndexOf('/') + 1);
  const kind = MIME_OF[base.slice(base.lastIndexOf('.') + 1).toLowerCase()];
  if (!kind) return { refused: 'bad_data' };
  const meta = file.metadata;
  const created = meta?.created_time ? Date.parse(meta.created_time) : Number.NaN;
  const name = (file.name ?? base).replace(/[^A-Za-z0-9._-]/g, '_').slice(-128);
  const parsed = mediaStoredEvent.safeParse({
    object_key: key,
    file_name: name || base,
    flight_id: file.ext?.flight_id || null,
    uav_sn: droneSn,
    type: kind.type,
    mime: kind.mime,
    lat: meta?.shoot_position?.lat ?? 0,
    lng: meta?.shoot_position?.lng ?? 0,
    height: meta?.relative_altitude ?? 0,
    taken_at: Number.isFinite(created) && created > 0 ? created : at,
  });
  return parsed.success ? parsed.data : { refused: 'bad_data' };
}

/** The `result` a dock's event is answered with, from what its listeners' settled work resolved with. */
export const eventResult = (settled: readonly unknown[]): number => (settled.some(isEventRefusal) ? DjiResult.MEDIA_REFUSED : 0);

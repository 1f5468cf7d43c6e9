import { randomUUID } from 'node:crypto';
import { mkdir, open, rm, truncate } from 'node:fs/promises';
import path from 'node:path';
import {
  MEDIA_CHUNK_MAX_BYTES,
  MEDIA_UPLOAD_PATH,
  PushMsgId,
  mediaUploadStart,
  type MediaUploadStart,
  type ResultAddedPush,
} from '@nest/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findFfmpeg } from '@nest/ffmpeg';
import { nowSeconds } from '../db/index.js';
import type { DeviceRow, MediaUploadsTable } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { attachEarlyResults, sortieOfFlight, syncSortieCount } from '../sorties/api.js';
import { isStorageFull } from '../storage/index.js';
import { authenticateDevice } from '../devices/api.js';
import { chunkKey, chunkOffset, contentMatches, jpegSize, legacyPartDir, makeThumbnail, resultPlace, scratchPath, sha256Of, uploadFolder } from './files.js';
import { STALE_UPLOAD_SECONDS, UPLOAD_SWEEP_MS, sweepStaleUploads } from './sweep.js';
import { refusalBody, type UploadError } from './texts.js';
import type { Selectable } from 'kysely';

type UploadRow = Selectable<MediaUploadsTable>;
/** The JSON body of a POST is a small description. */
const START_BODY_LIMIT = 16 * 1024;
const OCTET = 'application/offset+octet-stream';

/** A refusal carried through the handler to the reply. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly error: UploadError,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

/**
 * The device media upload endpoint (contracts MEDIA_UPLOAD_PATH, docs/device-protocol.md 9.4); README.md
 * in this folder has the storage layout and the decisions. Everything lives in its own plugin scope: the
 * app removed the global body parsers on purpose, and only these two routes take JSON and octet bodies.
 */
export async function registerMediaUpload(app: FastifyInstance, deps: AppDeps, hub: Pick<PushHub, 'publish'>): Promise<void> {
  const uploads = new MediaUploads(deps, hub, findFfmpeg());
  // Part files of the layout before chunks went into the store: their uploads start over (finish finds no chunks).
  await rm(legacyPartDir(deps.config.dataDir), { recursive: true, force: true });
  const sweep = setInterval(() => {
    sweepStaleUploads(deps, nowSeconds() - STALE_UPLOAD_SECONDS).catch((err: unknown) => app.log.warn({ err }, 'media upload sweep failed'));
  }, UPLOAD_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: START_BODY_LIMIT }, (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(Object.assign(new Error('bad json'), { statusCode: 400 }), undefined);
      }
    });
    scope.addContentTypeParser(OCTET, { parseAs: 'buffer', bodyLimit: MEDIA_CHUNK_MAX_BYTES }, (_req, body, done) => done(null, body));
    const devices = new WeakMap<FastifyRequest, DeviceRow>();
    // Before the body is read: a stranger cannot make the server buffer a chunk.
    scope.addHook('onRequest', async (request, reply) => {
      const device = await authenticateDevice(deps, request);
      if (!device) {
        return reply.code(401).header('www-authenticate', 'Basic realm="nest-media"').send(refusalBody('unauthorized'));
      }
      devices.set(request, device);
    });
    scope.setErrorHandler((err: FastifyError, request, reply) => answerError(err, request, reply));
    scope.post(MEDIA_UPLOAD_PATH, async (request, reply) => {
      const meta = mediaUploadStart.safeParse(request.body);
      if (!meta.success) return reply.code(400).send(refusalBody('bad_request', { issues: meta.error.issues.map((i) => i.path.join('.')) }));
      return uploads.start(devices.get(request)!, meta.data);
    });
    scope.patch<{ Params: { media_id: string } }>(`${MEDIA_UPLOAD_PATH}/:media_id`, async (request) => {
      if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== OCTET) throw new Refusal(415, 'unsupported_media');
      const offset = Number(request.headers['upload-offset']);
      if (!/^\d{1,15}$/.test(String(request.headers['upload-offset'] ?? '')) || !Number.isSafeInteger(offset)) {
        throw new Refusal(400, 'bad_offset_header');
      }
      // An id no start request could have made is not looked up (nor put in a path): a NUL in it would end in a database error.
      if (!mediaUploadStart.shape.media_id.safeParse(request.params.media_id).success) throw new Refusal(404, 'not_found');
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return uploads.append(devices.get(request)!, request.params.media_id, offset, body);
    });
  });
}

function answerError(err: FastifyError | Refusal, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof Refusal) return reply.code(err.status).send(refusalBody(err.error, err.extra));
  if (isStorageFull(err)) {
    request.log.warn({ err: err.message }, 'media upload: storage full');
    return reply.code(507).send(refusalBody('storage_full'));
  }
  const status = err.statusCode ?? 500;
  if (status === 413) return reply.code(413).send(refusalBody('too_large'));
  if (status === 415) return reply.code(415).send(refusalBody('unsupported_media'));
  if (status >= 400 && status < 500) return reply.code(status).send(refusalBody('bad_request'));
  request.log.error({ err }, 'media upload failed');
  return reply.code(500).send(refusalBody('server_error'));
}

/**
 * The upload state machine: rows in media_uploads, the accepted chunks as objects of the media store
 * (`uploads/<sn>/<media_id>/<offset>`), results when complete. The row's `received` is the truth: a chunk
 * is stored first, then `received` moves on only from the value it was read at, so two instances taking
 * chunks of one upload can never both count theirs.
 */
export class MediaUploads {
  /** One operation at a time per upload on this instance (two PATCHes of one media_id must not interleave). */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: AppDeps,
    private readonly hub: Pick<PushHub, 'publish'>,
    private readonly ffmpeg: string | null,
  ) {}

  private locked<T>(key: string, job: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(key) ?? Promise.resolve();
    const next = prev.then(job, job);
    const tail = next.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return next;
  }

  private row(sn: string, mediaId: string): Promise<UploadRow | undefined> {
    return this.deps.db.selectFrom('media_uploads').selectAll().where('sn_id', '=', sn).where('media_id', '=', mediaId).executeTakeFirst();
  }

  /** Moves `received` from `from` to `to`; false when it was not `from` any more (another instance moved it). */
  private async advance(sn: string, mediaId: string, from: number, to: number): Promise<boolean> {
    const r = await this.deps.db
      .updateTable('media_uploads')
      .set({ received: to, updated_at: nowSeconds() })
      .where('sn_id', '=', sn)
      .where('media_id', '=', mediaId)
      .where('received', '=', from)
      .where('result_id', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Starts an upload over at 0: its chunks go, its row counts nothing. */
  private async restart(sn: string, mediaId: string, set: Partial<Pick<UploadRow, 'meta' | 'size' | 'sha256'>> = {}): Promise<void> {
    await this.deps.media.deletePrefix(uploadFolder(sn, mediaId));
    await this.deps.db
      .updateTable('media_uploads')
      .set({ ...set, received: 0, updated_at: nowSeconds() })
      .where('sn_id', '=', sn)
      .where('media_id', '=', mediaId)
      .where('result_id', 'is', null)
      .execute();
  }

  /** POST: creates the upload or answers where it stands (a finished one: complete, never a second result). */
  start(device: DeviceRow, meta: MediaUploadStart): Promise<{ offset: number; complete: boolean }> {
    const sn = device.sn_id;
    return this.locked(`${sn}/${meta.media_id}`, async () => {
      const { db } = this.deps;
      const row = await this.row(sn, meta.media_id);
      if (row?.result_id) return { offset: Number(row.size), complete: true };
      if (row && (row.sha256 !== meta.sha256 || Number(row.size) !== meta.size)) {
        // Another file under the same id (the device re-encoded it): start it over.
        await this.restart(sn, meta.media_id, { meta: JSON.stringify(meta), size: meta.size, sha256: meta.sha256 });
        return { offset: 0, complete: false };
      }
      if (!row) {
        const now = nowSeconds();
        await db
          .insertInto('media_uploads')
          .values({ media_id: meta.media_id, sn_id: sn, meta: JSON.stringify(meta), size: meta.size, sha256: meta.sha256, received: 0, created_at: now, updated_at: now })
          .onConflict((oc) => oc.columns(['sn_id', 'media_id']).doNothing())
          .execute();
        return { offset: 0, complete: false };
      }
      const offset = Number(row.received);
      // Every byte arrived but the result was not made (a crash or a full store while finishing): finish now.
      if (offset === meta.size) return this.finish(device, row);
      return { offset, complete: false };
    });
  }

  /** PATCH: stores one chunk at `offset`; the last one finishes the upload. */
  append(device: DeviceRow, mediaId: string, offset: number, chunk: Buffer): Promise<{ offset: number; complete: boolean }> {
    const sn = device.sn_id;
    return this.locked(`${sn}/${mediaId}`, async () => {
      const row = await this.row(sn, mediaId);
      if (!row) throw new Refusal(404, 'not_found');
      const size = Number(row.size);
      if (row.result_id) return { offset: size, complete: true };
      const received = Number(row.received);
      if (offset !== received) throw new Refusal(409, 'offset_mismatch', { offset: received });
      if (received + chunk.length > size) throw new Refusal(413, 'too_large', { offset: received });
      if (chunk.length > 0) {
        try {
          // A whole object or none (disk or bucket full): the offset stays, the device resumes once there is room.
          await this.deps.media.putBytes(chunkKey(sn, mediaId, received), chunk, { contentType: 'application/octet-stream' });
        } catch (err) {
          if (isStorageFull(err)) throw new Refusal(507, 'storage_full', { offset: received });
          throw err;
        }
        if (!(await this.advance(sn, mediaId, received, received + chunk.length))) {
          // Another instance took a chunk of this upload meanwhile: the device asks again where it stands.
          const again = await this.row(sn, mediaId);
          if (again?.result_id) return { offset: size, complete: true };
          throw new Refusal(409, 'offset_mismatch', { offset: Number(again?.received ?? 0) });
        }
      }
      if (received + chunk.length < size) return { offset: received + chunk.length, complete: false };
      return this.finish(device, { ...row, received: size });
    });
  }

  /**
   * Joins the stored chunks of an upload, from offset 0 on, into the local file `dest`; answers how many
   * bytes follow on from 0 without a gap. Chunks left over from a write that was not counted (another
   * instance, a lost row update) are skipped or overwritten: the chain follows the offsets.
   */
  private async assemble(row: UploadRow, dest: string): Promise<number> {
    const { media } = this.deps;
    const size = Number(row.size);
    const chunks = (await media.list(uploadFolder(row.sn_id, row.media_id)))
      .map((key) => ({ key, offset: chunkOffset(key) }))
      .filter((c): c is { key: string; offset: number } => c.offset !== null)
      .sort((a, b) => a.offset - b.offset);
    await mkdir(path.dirname(dest), { recursive: true });
    const fh = await open(dest, 'w');
    let pos = 0;
    try {
      for (const c of chunks) {
        if (pos >= size || c.offset > pos) break;
        if (c.offset < pos) continue;
        for await (const b of await media.read(c.key)) {
          await fh.write(b as Buffer);
          pos += (b as Buffer).length;
        }
      }
    } finally {
      await fh.close();
    }
    return pos;
  }

  /** Restarts an upload at 0 (the whole file was wrong). */
  private async reset(row: UploadRow, error: UploadError): Promise<never> {
    await this.restart(row.sn_id, row.media_id);
    throw new Refusal(422, error, { offset: 0 });
  }

  /**
   * All bytes are in: join the chunks (local scratch), verify (sha256, content type), thumbnail, put both
   * into the media store (media/results/), then ONE transaction makes the result and marks the upload
   * complete; the chunks go last. The objects are removed again when it fails, and the chunks stay: a store
   * that is full or unreachable leaves the upload complete but unfinished (507 when full), and the next POST
   * finishes it, on any instance.
   */
  private async finish(device: DeviceRow, row: UploadRow): Promise<{ offset: number; complete: boolean }> {
    const part = scratchPath(this.deps.config.dataDir, `${row.sn_id}-${row.media_id}-${randomUUID()}.part`);
    try {
      return await this.finishFrom(device, row, part);
    } finally {
      await Promise.allSettled([rm(part, { force: true }), rm(`${part}.thumb.jpg`, { force: true })]);
    }
  }

  private async finishFrom(device: DeviceRow, row: UploadRow, part: string): Promise<{ offset: number; complete: boolean }> {
    const { db } = this.deps;
    const meta = JSON.parse(row.meta) as MediaUploadStart;
    const size = Number(row.size);
    const joined = await this.assemble(row, part);
    if (joined < size) {
      // Chunks were lost (a wiped store folder): the device goes on from where they still follow on.
      await this.advance(row.sn_id, row.media_id, size, joined);
      return { offset: joined, complete: false };
    }
    if (joined > size) await truncate(part, size);
    if ((await sha256Of(part)) !== row.sha256) return this.reset(row, 'sha256_mismatch');
    if (!(await contentMatches(part, meta.mime))) return this.reset(row, 'content_mismatch');

    const id = randomUUID();
    const ext = meta.mime === 'image/jpeg' ? 'jpg' : 'mp4';
    const place = resultPlace(new Date());
    const key = `${place.prefix}${id}.${ext}`;
    const thumbKey = `${place.prefix}${id}_thumb.jpg`;
    const { media } = this.deps;
    const dims = meta.mime === 'image/jpeg' && (meta.width === null || meta.height_px === null) ? await jpegSize(part) : null;
    // The thumbnail is made beside the joined file (local scratch), then both go to the store.
    const thumb = `${part}.thumb.jpg`;
    const thumbed = await makeThumbnail(part, thumb, meta.mime, this.ffmpeg);
    try {
      if (thumbed) await media.putFile(thumbKey, thumb, { contentType: 'image/jpeg', move: true });
      await media.putFile(key, part, { contentType: meta.mime, move: true });
    } catch (err) {
      // Store full or unreachable: nothing new stays in the store; the chunks and every received byte stay.
      await Promise.allSettled([media.delete(key), media.delete(thumbKey)]);
      throw err;
    }
    const url = `${place.url}${id}.${ext}`;
    const thumbUrl = thumbed ? `${place.url}${id}_thumb.jpg` : '';
    let sortId: string | null = null;
    try {
      await db.transaction().execute(async (trx) => {
        sortId = meta.flight_id ? ((await sortieOfFlight(trx, row.sn_id, meta.flight_id))?.id ?? null) : null;
        await trx
          .insertInto('results')
          .values({
            id,
            media_id: row.media_id,
            sn_id: row.sn_id,
            company_id: device.company_id,
            sort_id: sortId,
            type: meta.type,
            file_name: meta.file_name,
            url,
            thumb_url: thumbUrl,
            mime: meta.mime,
            size: meta.size,
            width: meta.width ?? dims?.width ?? null,
            height_px: meta.height_px ?? dims?.height ?? null,
            duration: meta.duration,
            lat: meta.lat,
            lng: meta.lng,
            height: meta.height,
            waypoint_index: meta.waypoint_index,
            taken_at: meta.taken_at,
            created_at: nowSeconds(),
          })
          .execute();
        const marked = await trx
          .updateTable('media_uploads')
          .set({ result_id: id, received: meta.size, updated_at: nowSeconds() })
          .where('sn_id', '=', row.sn_id)
          .where('media_id', '=', row.media_id)
          .where('result_id', 'is', null)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) !== 1) throw new Error('upload finished twice');
        if (sortId) await syncSortieCount(trx, sortId);
      });
    } catch (err) {
      await Promise.allSettled([media.delete(key), media.delete(thumbKey)]);
      // Another instance may have finished it (results are unique per sn and media_id).
      const again = await this.row(row.sn_id, row.media_id);
      if (again?.result_id) return { offset: Number(again.size), complete: true };
      // The chunks are still there: the next POST finishes it.
      throw err;
    }
    // The result is made: the chunks are not needed any more (the sweep removes any this misses).
    await media.deletePrefix(uploadFolder(row.sn_id, row.media_id)).catch(() => undefined);
    if (sortId === null && meta.flight_id) {
      // The sortie may have been recorded while this transaction ran (it attaches only committed results).
      const late = await sortieOfFlight(db, row.sn_id, meta.flight_id);
      if (late && (await attachEarlyResults(db, row.sn_id, meta.flight_id, late.id)) > 0) sortId = late.id;
    }
    const push: ResultAddedPush = { sn_id: row.sn_id, sort_id: sortId, id, type: meta.type, url, thumb_url: thumbUrl };
    this.hub.publish(row.sn_id, PushMsgId.RESULT_ADDED, push);
    this.deps.changes.changed(device.company_id, 'results');
    return { offset: meta.size, complete: true };
  }
}

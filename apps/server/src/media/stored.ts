import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MEDIA_MAX_BYTES, MediaMethod, PushMsgId, mediaStoredEvent, type EventRefusal, type LinkEnvelope, type MediaStoredEvent, type ResultAddedPush } from '@nest/contracts';
import { findFfmpeg } from '@nest/ffmpeg';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { findDeviceBySn } from '../devices/api.js';
import { attachEarlyResults, sortieOfFlight, syncSortieCount } from '../sorties/api.js';
import { contentMatches, jpegSize, makeThumbnail, resultPlace, scratchPath } from './files.js';

/** The result's media id of a stored object: one result per object, however often the device reports it. */
export const storedMediaId = (objectKey: string): string => `dji-${createHash('sha256').update(objectKey).digest('hex').slice(0, 40)}`;

/**
 * Results from files devices put into the server's upload ingest themselves (DJI docks): the link's
 * `media.stored` event becomes a result as a native nest's finished upload does (README.md, "Files stored
 * by the device"). The object is checked (present, within the limits, content as its type says), moved to
 * the results layout with a thumbnail, and the row made in one transaction with the sortie's count; the
 * event is acknowledged only then. A file that cannot become a result is refused (EventRefusal) and makes
 * nothing; a report of an object that already made its result is acknowledged again.
 */
export class StoredMediaResults {
  private readonly ffmpeg = findFfmpeg();
  /** One operation per object at a time on this instance (a re-sent report while the first is at work). */
  private readonly busy = new Map<string, Promise<unknown>>();

  private readonly onEvent = (sn: string, m: LinkEnvelope, settle?: (stored: Promise<unknown>) => void) => {
    if (m.method !== MediaMethod.STORED) return;
    const parsed = mediaStoredEvent.safeParse(m.data);
    const work = parsed.success ? this.once(sn, parsed.data) : Promise.resolve<EventRefusal>({ refused: 'bad_data' });
    settle?.(work);
  };

  constructor(
    private readonly deps: AppDeps,
    private readonly hub: Pick<PushHub, 'publish'>,
  ) {}

  start(): void {
    this.deps.live.link.on('event', this.onEvent);
  }

  stop(): Promise<void> {
    this.deps.live.link.off('event', this.onEvent);
    return Promise.resolve();
  }

  private once(sn: string, e: MediaStoredEvent): Promise<unknown> {
    const key = `${sn}/${e.object_key}`;
    const prev = this.busy.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.store(sn, e));
    const tail = next.catch(() => undefined);
    this.busy.set(key, tail);
    void tail.then(() => {
      if (this.busy.get(key) === tail) this.busy.delete(key);
    });
    return next;
  }

  /** Makes the result of one stored object; resolves with a refusal when it cannot be one. */
  async store(sn: string, e: MediaStoredEvent): Promise<{ id: string } | EventRefusal> {
    const { db, media } = this.deps;
    const mediaId = storedMediaId(e.object_key);
    const done = await db.selectFrom('results').select('id').where('sn_id', '=', sn).where('media_id', '=', mediaId).executeTakeFirst();
    if (done) return { id: done.id };
    const device = await findDeviceBySn(db, sn);
    if (!device) return { refused: 'bad_data' };
    const info = await media.stat(e.object_key);
    if (!info) return { refused: 'not_found' };
    if (info.size > MEDIA_MAX_BYTES || info.size === 0) return { refused: 'too_large' };

    const part = scratchPath(this.deps.config.dataDir, `${sn}-${mediaId}-${randomUUID()}.part`);
    const thumb = `${part}.thumb.jpg`;
    try {
      await mkdir(path.dirname(part), { recursive: true });
      await pipeline(await media.read(e.object_key), createWriteStream(part));
      if (!(await contentMatches(part, e.mime))) return { refused: 'content_mismatch' };
      const id = randomUUID();
      const ext = e.mime === 'image/jpeg' ? 'jpg' : 'mp4';
      const place = resultPlace(new Date());
      const key = `${place.prefix}${id}.${ext}`;
      const thumbKey = `${place.prefix}${id}_thumb.jpg`;
      const dims = e.mime === 'image/jpeg' ? await jpegSize(part) : null;
      const thumbed = await makeThumbnail(part, thumb, e.mime, this.ffmpeg);
      try {
        if (thumbed) await media.putFile(thumbKey, thumb, { contentType: 'image/jpeg', move: true });
        await media.putFile(key, part, { contentType: e.mime, move: true });
      } catch (err) {
        await Promise.allSettled([media.delete(key), media.delete(thumbKey)]);
        throw err;
      }
      const url = `${place.url}${id}.${ext}`;
      const thumbUrl = thumbed ? `${place.url}${id}_thumb.jpg` : '';
      let sortId: string | null = null;
      let made = false;
      try {
        await db.transaction().execute(async (trx) => {
          sortId = e.flight_id ? ((await sortieOfFlight(trx, sn, e.flight_id))?.id ?? null) : null;
          const inserted = await trx
            .insertInto('results')
            .values({
              id,
              media_id: mediaId,
              sn_id: sn,
              company_id: device.company_id,
              sort_id: sortId,
              type: e.type,
              file_name: e.file_name,
              url,
              thumb_url: thumbUrl,
              mime: e.mime,
              size: info.size,
              width: dims?.width ?? null,
              height_px: dims?.height ?? null,
              duration: null,
              lat: e.lat,
              lng: e.lng,
              height: e.height,
              waypoint_index: null,
              taken_at: e.taken_at,
              created_at: nowSeconds(),
            })
            .onConflict((oc) => oc.columns(['sn_id', 'media_id']).doNothing())
            .executeTakeFirst();
          made = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
          if (made && sortId) await syncSortieCount(trx, sortId);
        });
      } catch (err) {
        await Promise.allSettled([media.delete(key), media.delete(thumbKey)]);
        throw err;
      }
      if (!made) {
        // Another instance made it meanwhile: ours goes.
        await Promise.allSettled([media.delete(key), media.delete(thumbKey)]);
        return { id: mediaId };
      }
      // The device's copy is now the result's: the upload object goes (a re-sent report finds the result first).
      await media.delete(e.object_key).catch(() => undefined);
      if (sortId === null && e.flight_id) {
        // The sortie may have been recorded while this transaction ran (it attaches only committed results).
        const late = await sortieOfFlight(db, sn, e.flight_id);
        if (late && (await attachEarlyResults(db, sn, e.flight_id, late.id)) > 0) sortId = late.id;
      }
      const push: ResultAddedPush = { sn_id: sn, sort_id: sortId, id, type: e.type, url, thumb_url: thumbUrl };
      this.hub.publish(sn, PushMsgId.RESULT_ADDED, push);
      this.deps.changes.changed(device.company_id, 'results');
      return { id };
    } finally {
      await Promise.allSettled([rm(part, { force: true }), rm(thumb, { force: true })]);
    }
  }
}

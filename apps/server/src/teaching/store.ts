import { RecordState, type TeachingVideo } from '@nest/contracts';
import type { Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { TeachingVideosTable } from '../db/schema.js';
import { signedLink } from '../storage/links.js';

export type TeachingRow = Selectable<TeachingVideosTable>;

/** `state` of a teaching video (contracts RecordState). */
export const TEACH_LIVE: number = RecordState.NORMAL;
export const TEACH_DELETED: number = RecordState.DELETED;
export const VIDEO_PURPOSE = 'teach';
export const POSTER_PURPOSE = 'teach-poster';

export const videoPath = (videoBase: string, id: string): string => `${videoBase}/teach/file/${encodeURIComponent(id)}`;
export const posterPath = (videoBase: string, id: string): string => `${videoBase}/teach/poster/${encodeURIComponent(id)}`;

export async function presentTeaching(db: Database, videoBase: string, r: TeachingRow): Promise<TeachingVideo> {
  const live = Number(r.state) === TEACH_LIVE;
  return {
    id: r.id,
    preview_url: live ? await signedLink(db, videoPath(videoBase, r.id), VIDEO_PURPOSE, r.id) : '',
    poster_url: live && r.thumb_key ? await signedLink(db, posterPath(videoBase, r.id), POSTER_PURPOSE, r.id) : '',
    title: r.title,
    describe: r.describe,
    notes: r.notes,
    cla_type: Number(r.cla_type),
    file_name: r.file_name,
    mime: r.mime,
    size_kb: Math.round((Number(r.size) / 1024) * 10) / 10,
    duration: r.duration === null ? null : Number(r.duration),
    state: Number(r.state) as TeachingVideo['state'],
    create_time: Number(r.create_time),
    modified_time: Number(r.modified_time),
  };
}

export const findLiveTeaching = (db: Database, id: string): Promise<TeachingRow | undefined> =>
  db.selectFrom('teaching_videos').selectAll().where('id', '=', id).where('state', '=', TEACH_LIVE).executeTakeFirst();

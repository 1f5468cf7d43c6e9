/** Rows for the figures tests (stats, sorties list, zip): sorties, results and alarms inserted directly. */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/index.js';

export const iso = (s: string): number => Math.floor(Date.parse(s) / 1000);

export async function addSortie(
  db: Database,
  o: { sn: string; company?: string; start: number; end?: number | null; distance?: number; mission?: string; missionType?: number; count?: number; plan?: string | null },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('sorties')
    .values({
      id,
      flight_id: `F-${id}`,
      sn_id: o.sn,
      company_id: o.company ?? 'wk',
      mission_name: o.mission ?? '',
      mission_type: o.missionType ?? 0,
      start_time: o.start,
      end_time: o.end === undefined ? o.start + 600 : o.end,
      distance: o.distance ?? 0,
      count: o.count ?? 0,
      created_at: o.start,
      plan: o.plan ?? null,
    })
    .execute();
  return id;
}

/**
 * A result row; with `dataDir` also its file under DATA_DIR/media/results/<yyyy-mm>/ (a tiny JPEG-shaped
 * or MP4-shaped body, `bytes` long).
 */
export async function addResult(
  db: Database,
  o: {
    sn: string;
    company?: string;
    sortId?: string | null;
    type?: number;
    takenAt: number;
    fileName?: string;
    lat?: number;
    lng?: number;
    dataDir?: string;
    bytes?: number;
    size?: number;
  },
): Promise<{ id: string; url: string; body: Buffer }> {
  const id = randomUUID();
  const type = o.type ?? 10;
  const ext = type === 20 ? 'mp4' : 'jpg';
  const month = new Date(o.takenAt * 1000).toISOString().slice(0, 7);
  const url = `/media/results/${month}/${id}.${ext}`;
  const n = o.bytes ?? 64;
  const body = Buffer.alloc(n, 7);
  if (ext === 'jpg') {
    body[0] = 0xff;
    body[1] = 0xd8;
    body[n - 2] = 0xff;
    body[n - 1] = 0xd9;
  }
  if (o.dataDir) {
    const dir = path.join(o.dataDir, 'media', 'results', month);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${id}.${ext}`), body);
  }
  await db
    .insertInto('results')
    .values({
      id,
      media_id: `M-${id}`,
      sn_id: o.sn,
      company_id: o.company ?? 'wk',
      sort_id: o.sortId ?? null,
      type,
      file_name: o.fileName ?? `${id}.${ext}`,
      url,
      mime: ext === 'mp4' ? 'video/mp4' : 'image/jpeg',
      size: o.size ?? n,
      lat: o.lat ?? 0,
      lng: o.lng ?? 0,
      height: 50,
      taken_at: o.takenAt * 1000,
      created_at: o.takenAt,
    })
    .execute();
  return { id, url, body };
}

export async function addAlarm(
  db: Database,
  o: { sn: string; company?: string; kind?: string; level: number; state?: number; raisedAt: number; value?: number | null; detail?: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('alarms')
    .values({
      id,
      sn_id: o.sn,
      company_id: o.company ?? 'wk',
      kind: o.kind ?? 'battery_low',
      level: o.level,
      state: o.state ?? 10,
      value: o.value ?? null,
      detail: o.detail ?? '',
      raised_at: o.raisedAt * 1000,
      cleared_at: o.raisedAt * 1000 + 1000,
    })
    .execute();
  return id;
}

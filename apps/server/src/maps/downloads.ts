import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { MapDownloadState, tileAt, tileRanges, type MapDownload } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Basemap } from './basemap.js';

/** A claim not renewed for this long belongs to an instance that stopped without releasing it. */
export const DOWNLOAD_STALE_CLAIM_S = 60;
/** How often waiting (or orphaned) jobs are looked for when nothing kicked the runner. */
export const DOWNLOAD_POLL_MS = 5_000;
/** Tiles cut per transaction; the event loop gets a turn between batches. */
export const DOWNLOAD_BATCH = 64;
/** Push 391 at most this often per job while it runs (its end is always pushed). */
const PUSH_EVERY_MS = 500;

/** A stored job as the calls and push 391 show it. */
export function presentDownload(row: Record<string, unknown>): MapDownload {
  return {
    id: String(row.id),
    name: String(row.name ?? ''),
    min_lat: Number(row.min_lat),
    min_lng: Number(row.min_lng),
    max_lat: Number(row.max_lat),
    max_lng: Number(row.max_lng),
    min_zoom: Number(row.min_zoom),
    max_zoom: Number(row.max_zoom),
    total: Number(row.total),
    done: Number(row.done),
    state: String(row.state) as MapDownload['state'],
    error: String(row.error ?? ''),
    u_id: String(row.u_id ?? ''),
    company_id: String(row.company_id),
    create_time: Number(row.create_time),
    modified_time: Number(row.modified_time),
  };
}

export interface DownloadLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface DownloadOptions {
  db: Kysely<DB>;
  basemap: Pick<Basemap, 'precut'>;
  log: DownloadLog;
  /** A job changed (progress, end): push 391. */
  notify?: (job: MapDownload) => void;
  /** This instance's claim mark; default a random id per process start. */
  instanceId?: string;
  /** Clock in Unix seconds (tests). */
  now?: () => number;
  batch?: number;
}

/**
 * The download runner: `tick()` claims the oldest job that is waiting, or running under a stale or released
 * claim, with a conditional UPDATE (only the instance whose UPDATE changed the row runs it) and cuts its
 * tiles in a fixed order from `done` on, so a job stopped by a restart resumes where it was. Each batch
 * records `done` and renews the claim in one UPDATE that also requires the job still to be running under
 * this claim: a cancel (state changed) or a lost claim ends the run after the current batch.
 */
export function createDownloads(opts: DownloadOptions) {
  const { db, basemap, log } = opts;
  const instanceId = opts.instanceId ?? `maps-${randomUUID()}`;
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  const batchSize = opts.batch ?? DOWNLOAD_BATCH;
  let stopping = false;

  const claimable = (t: number) =>
    db
      .selectFrom('map_downloads')
      .selectAll()
      .where('state', 'in', [MapDownloadState.WAITING, MapDownloadState.RUNNING])
      .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_at', '<', t - DOWNLOAD_STALE_CLAIM_S)]))
      .orderBy('create_time')
      .orderBy('id')
      .limit(5)
      .execute();

  async function claim(id: string, t: number): Promise<boolean> {
    const res = await db
      .updateTable('map_downloads')
      .set({ claimed_by: instanceId, claimed_at: t, state: MapDownloadState.RUNNING, modified_time: t })
      .where('id', '=', id)
      .where('state', 'in', [MapDownloadState.WAITING, MapDownloadState.RUNNING])
      .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_at', '<', t - DOWNLOAD_STALE_CLAIM_S)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async function read(id: string): Promise<MapDownload | null> {
    const row = await db.selectFrom('map_downloads').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? presentDownload(row) : null;
  }

  /** Writes progress (and optionally the end) under this instance's claim; false when the claim is gone or the job no longer runs. */
  async function record(id: string, patch: { done: number; state?: string; error?: string; release?: boolean }): Promise<boolean> {
    const t = now();
    const res = await db
      .updateTable('map_downloads')
      .set({
        done: patch.done,
        modified_time: t,
        claimed_at: t,
        ...(patch.state ? { state: patch.state } : {}),
        ...(patch.error !== undefined ? { error: patch.error.slice(0, 500) } : {}),
        ...(patch.release ? { claimed_by: null, claimed_at: null } : {}),
      })
      .where('id', '=', id)
      .where('claimed_by', '=', instanceId)
      .where('state', '=', MapDownloadState.RUNNING)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async function run(job: MapDownload): Promise<void> {
    const ranges = tileRanges(job, job.min_zoom, job.max_zoom);
    let done = job.done;
    let pushedAt = 0;
    const push = async (force: boolean) => {
      if (!opts.notify || (!force && Date.now() - pushedAt < PUSH_EVERY_MS)) return;
      pushedAt = Date.now();
      const fresh = await read(job.id);
      if (fresh) opts.notify(fresh);
    };
    await push(true);
    try {
      while (done < job.total) {
        if (stopping) {
          // Released, not failed: the next start (of any instance) resumes at `done` without waiting for the claim to go stale.
          await record(job.id, { done, release: true });
          log.info({ job: job.id, done, total: job.total }, 'map download paused by shutdown');
          return;
        }
        const tiles: [number, number, number][] = [];
        for (let i = done; i < Math.min(job.total, done + batchSize); i++) {
          const tile = tileAt(ranges, i);
          if (tile) tiles.push(tile);
        }
        await basemap.precut(tiles);
        done += tiles.length === 0 ? job.total - done : tiles.length;
        if (!(await record(job.id, { done }))) {
          // Cancelled meanwhile (or the claim went stale and another instance took it): stop here.
          await push(true);
          return;
        }
        await push(false);
        await yieldToLoop();
      }
      await record(job.id, { done: job.total, state: MapDownloadState.DONE, release: true });
      log.info({ job: job.id, total: job.total }, 'map download done');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await record(job.id, { done, state: MapDownloadState.FAILED, error: message, release: true }).catch(() => false);
      log.warn({ job: job.id, err: message }, 'map download failed');
    }
    await push(true);
  }

  /** One pass: claims and runs at most one job to its end (or pause); answers whether one ran. */
  async function tick(): Promise<boolean> {
    if (stopping) return false;
    const t = now();
    for (const row of await claimable(t)) {
      if (!(await claim(row.id, t))) continue;
      const job = presentDownload({ ...row, state: MapDownloadState.RUNNING });
      await run(job);
      return true;
    }
    return false;
  }

  return {
    instanceId,
    tick,
    /** Ends the running job after its current batch (left running and unclaimed, to resume later). */
    stop: () => {
      stopping = true;
    },
  };
}

export type Downloads = ReturnType<typeof createDownloads>;

/**
 * Runs `tick` until no job is left, then every DOWNLOAD_POLL_MS; `kick()` starts a pass at once (a job
 * was added). Never two passes at once; `stop()` pauses the running job and waits for it.
 */
export function runDownloads(downloads: Downloads, log: DownloadLog, pollMs = DOWNLOAD_POLL_MS): { kick(): void; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const pass = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        while (!stopped && (await downloads.tick())) {
          /* one job after another */
        }
      } while (again && !stopped);
    })()
      .catch((err: unknown) => log.warn({ err }, 'map download pass failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(pass, pollMs);
  timer.unref();
  return {
    kick: pass,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      downloads.stop();
      await running;
    },
  };
}

import {
  MAP_DOWNLOAD_MAX_ACTIVE,
  MAP_DOWNLOAD_MAX_TILES,
  MapDownloadState,
  PushMsgId,
  ResultCode,
  tileAt,
  tileCount,
  tileRanges,
  type MapDownload,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, listen, until } from '../../test/live.js';
import { createDownloads, DOWNLOAD_STALE_CLAIM_S } from './downloads.js';

/** Shenzhen and its surroundings (about 30 x 30 km). */
const SZ = { min_lat: 22.4, min_lng: 113.8, max_lat: 22.7, max_lng: 114.2 };
const FUNS = ['map_down', 'map_downList', 'map_downCancel', 'device_10'];
const quiet = { info: () => undefined, warn: () => undefined };

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
let nobody: TestClient;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  wk = await userClient(server, { companyId: 'wk', funList: FUNS });
  gz = await userClient(server, { companyId: 'gzGh', funList: FUNS });
  nobody = await userClient(server, { companyId: 'wk', funList: ['device_10'] });
});
afterAll(async () => server?.close());

async function job(id: string): Promise<MapDownload> {
  const res = await wk.call<{ list: MapDownload[] }>('mapDownList', { size: 200 });
  const hit = res.body.data.list.find((j) => j.id === id);
  if (!hit) throw new Error(`job ${id} not listed`);
  return hit;
}

/** Guangdong: a few hundred tiles at z0-z10. */
const BIG = { min_lat: 20, min_lng: 109, max_lat: 25, max_lng: 117 };
/**
 * A claim this server's own runner (real clock) sees as live, but the runner tests' fake clock (far ahead)
 * as stale: the rows are left to the test instances.
 */
const reserved = () => ({ claimed_by: 'reserved', claimed_at: Math.floor(Date.now() / 1000) + 50_000 });

/** Inserts a job row directly. */
async function insertJob(id: string, fields: Partial<MapDownload & { claimed_by: string | null; claimed_at: number | null }> = {}) {
  const box = BIG;
  await server.db
    .insertInto('map_downloads')
    .values({
      id,
      company_id: 'wk',
      name: id,
      ...box,
      min_zoom: 0,
      max_zoom: 10,
      total: tileCount(box, 0, 10),
      done: 0,
      state: MapDownloadState.WAITING,
      error: '',
      claimed_by: null,
      claimed_at: null,
      u_id: '',
      create_time: 1,
      modified_time: 1,
      ...fields,
    })
    .execute();
}

const rowOf = (id: string) => server.db.selectFrom('map_downloads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('tile math', () => {
  it('counts the tiles of a box per zoom and enumerates them in a fixed order', () => {
    // z0: the world tile; z10: Shenzhen spans 2 columns... the sum is what the job cuts.
    const ranges = tileRanges(SZ, 0, 10);
    expect(ranges[0]).toEqual({ z: 0, x0: 0, x1: 0, y0: 0, y1: 0 });
    expect(ranges[10]).toMatchObject({ z: 10, x0: 835, x1: 836, y0: 445, y1: 446 });
    const total = tileCount(SZ, 0, 10);
    expect(total).toBe(ranges.reduce((n, r) => n + (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1), 0));
    const all = Array.from({ length: total }, (_, i) => tileAt(ranges, i)!.join('/'));
    expect(new Set(all).size).toBe(total);
    expect(tileAt(ranges, total)).toBeNull();
    expect(all[0]).toBe('0/0/0');
    expect(all.at(-1)).toBe('10/836/446');
  });
});

describe('/map/down', () => {
  it('starts a job that cuts every tile into the store, pushes progress as 391 and ends done', async () => {
    const push = await PushSocket.open(await listen(server));
    expect((await push.verifyUser(wk)).code).toBe(ResultCode.OK);
    const res = await wk.call<{ id: string; total: number }>('mapDown', { name: 'Shenzhen', ...SZ, min_zoom: 6, max_zoom: 10 });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.total).toBe(tileCount(SZ, 6, 10));
    const { id, total } = res.body.data;
    const end = await push.wait((f) => f.msg_id === PushMsgId.MAP_DOWNLOAD && (f.data as MapDownload).id === id && (f.data as MapDownload).state === 'done', WAIT_LIMIT_MS);
    expect(end.data).toMatchObject({ id, done: total, total, state: 'done', name: 'Shenzhen' });
    push.close();
    expect(await job(id)).toMatchObject({ state: 'done', done: total });
    // The corner tiles of the box at z10 are served from the file (200 with data, 204 known empty).
    for (const [z, x, y] of tileRanges(SZ, 10, 10).flatMap((r) => [[r.z, r.x0, r.y0], [r.z, r.x1, r.y1]])) {
      const tile = await server.app.inject({ method: 'GET', url: `/api/zone/tiles/basemap/${z}/${x}/${y}.pbf` });
      expect([200, 204]).toContain(tile.statusCode);
    }
  });

  it('refuses more tiles than the limit, naming the count; nothing is stored', async () => {
    const world = { min_lat: -80, min_lng: -179, max_lat: 80, max_lng: 179 };
    const count = tileCount(world, 0, 10);
    expect(count).toBeGreaterThan(MAP_DOWNLOAD_MAX_TILES);
    const before = (await wk.call<{ total: number }>('mapDownList', {})).body.data.total;
    const res = await wk.call('mapDown', { ...world, min_zoom: 0, max_zoom: 10 });
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(res.body.msg).toContain(String(count));
    expect(res.body.msg).toContain(String(MAP_DOWNLOAD_MAX_TILES));
    expect((await wk.call<{ total: number }>('mapDownList', {})).body.data.total).toBe(before);
  });

  it('refuses bad boxes and zooms', async () => {
    for (const bad of [
      { ...SZ, min_lat: 23 }, // min above max
      { ...SZ, min_zoom: 11, max_zoom: 11 },
      { ...SZ, min_zoom: 8, max_zoom: 6 },
      { ...SZ, max_lat: 89 }, // beyond Web Mercator
      { min_lat: 22, min_lng: 113 }, // missing values
    ]) {
      const res = await wk.call('mapDown', { min_zoom: 0, max_zoom: 2, ...bad });
      expect(res.body.code, JSON.stringify(bad)).toBe(ResultCode.BAD_REQUEST);
    }
  });

  it('needs its function', async () => {
    for (const name of ['mapDown', 'mapDownList', 'mapDownCancel'] as const) {
      const res = await nobody.call(name, { ...SZ, min_zoom: 0, max_zoom: 1, id: 'x' });
      expect(res.body.code, name).toBe(ResultCode.NO_PERMISSION);
    }
  });
});

describe('/map/downList and /map/downCancel', () => {
  it('lists only the company\'s jobs; another company cannot cancel them', async () => {
    await insertJob('scope-wk', { state: MapDownloadState.DONE, done: 10, total: 10 });
    await insertJob('scope-gz', { company_id: 'gzGh', state: MapDownloadState.DONE, done: 10, total: 10 });
    const wkIds = (await wk.call<{ list: MapDownload[] }>('mapDownList', { size: 200 })).body.data.list.map((j) => j.id);
    const gzIds = (await gz.call<{ list: MapDownload[] }>('mapDownList', { size: 200 })).body.data.list.map((j) => j.id);
    expect(wkIds).toContain('scope-wk');
    expect(wkIds).not.toContain('scope-gz');
    expect(gzIds).toEqual(['scope-gz']);
    const res = await gz.call('mapDownCancel', { id: 'scope-wk' });
    expect(res.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('cancels a waiting job; an ended job cannot be cancelled', async () => {
    // Claimed by a live foreign instance, so this server's runner leaves it alone.
    await insertJob('cancel-me', { claimed_by: 'elsewhere', claimed_at: Math.floor(Date.now() / 1000) + 3600 });
    const res = await wk.call<MapDownload>('mapDownCancel', { id: 'cancel-me' });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.state).toBe('cancelled');
    expect((await wk.call('mapDownCancel', { id: 'cancel-me' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('mapDownCancel', { id: 'scope-wk' })).body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('refuses a new job while the company has the maximum unfinished', async () => {
    const held = { claimed_by: 'elsewhere', claimed_at: Math.floor(Date.now() / 1000) + 3600 };
    for (let i = 0; i < MAP_DOWNLOAD_MAX_ACTIVE; i++) await insertJob(`busy-${i}`, { company_id: 'gzGh', ...held });
    const res = await gz.call('mapDown', { ...SZ, min_zoom: 0, max_zoom: 1 });
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(res.body.msg).toContain(String(MAP_DOWNLOAD_MAX_ACTIVE));
    await server.db.updateTable('map_downloads').set({ state: 'cancelled' }).where('id', 'like', 'busy-%').execute();
  });
});

describe('the download runner', () => {
  /** A fake tile store recording what was cut. */
  const fakeStore = () => {
    const cut: string[] = [];
    return { cut, basemap: { precut: async (tiles: readonly (readonly [number, number, number])[]) => (cut.push(...tiles.map((t) => t.join('/'))), tiles.length) } };
  };
  // The test instances run on a clock far ahead of the server's own runner (see `reserved`).
  let clock = Math.floor(Date.now() / 1000) + 100_000;
  const now = () => clock;

  it('one instance claims a job; the other finds nothing to do', async () => {
    await insertJob('claim-1', { company_id: 'runner', create_time: 0, ...reserved() });
    const a = fakeStore();
    const b = fakeStore();
    const runA = createDownloads({ db: server.db, basemap: a.basemap, log: quiet, instanceId: 'A', now, batch: 5 });
    const runB = createDownloads({ db: server.db, basemap: b.basemap, log: quiet, instanceId: 'B', now, batch: 5 });
    const [ra, rb] = await Promise.all([runA.tick(), runB.tick()]);
    expect([ra, rb].filter(Boolean)).toHaveLength(1);
    const row = await rowOf('claim-1');
    expect(row.state).toBe('done');
    expect(Number(row.done)).toBe(Number(row.total));
    expect(row.claimed_by).toBeNull();
    // Every tile exactly once, by whichever won.
    const cut = [...a.cut, ...b.cut];
    expect(cut).toHaveLength(Number(row.total));
    expect(new Set(cut).size).toBe(cut.length);
  });

  it('resumes after a restart from `done`, once the old claim is stale', async () => {
    const total = tileCount(BIG, 0, 10);
    await insertJob('resume-1', { company_id: 'runner', state: MapDownloadState.RUNNING, done: 7, claimed_by: 'dead', claimed_at: clock, create_time: 0 });
    const s = fakeStore();
    const runner = createDownloads({ db: server.db, basemap: s.basemap, log: quiet, instanceId: 'C', now, batch: 4 });
    expect(await runner.tick()).toBe(false); // the claim is fresh: the old instance might still be running it
    clock += DOWNLOAD_STALE_CLAIM_S + 1;
    expect(await runner.tick()).toBe(true);
    const ranges = tileRanges(BIG, 0, 10);
    expect(s.cut).toHaveLength(total - 7);
    expect(s.cut[0]).toBe(tileAt(ranges, 7)!.join('/'));
    expect((await rowOf('resume-1')).state).toBe('done');
  });

  it('pauses on shutdown (released, done kept) and the next start carries on', async () => {
    await insertJob('pause-1', { company_id: 'runner', create_time: 0, ...reserved() });
    const first = fakeStore();
    let runner: ReturnType<typeof createDownloads> | null = null;
    const basemap = {
      precut: async (tiles: readonly (readonly [number, number, number])[]) => {
        const n = await first.basemap.precut(tiles);
        if (first.cut.length >= 8) runner!.stop();
        return n;
      },
    };
    runner = createDownloads({ db: server.db, basemap, log: quiet, instanceId: 'D', now, batch: 4 });
    await runner.tick();
    const paused = await rowOf('pause-1');
    expect(paused).toMatchObject({ state: 'running', claimed_by: null });
    expect(Number(paused.done)).toBe(8);
    const second = fakeStore();
    const next = createDownloads({ db: server.db, basemap: second.basemap, log: quiet, instanceId: 'E', now, batch: 4 });
    expect(await next.tick()).toBe(true);
    expect(first.cut.length + second.cut.length).toBe(Number(paused.total));
    expect((await rowOf('pause-1')).state).toBe('done');
  });

  it('stops after the current batch when the job is cancelled', async () => {
    await insertJob('cancel-run', { company_id: 'runner', create_time: 0, ...reserved() });
    const s = fakeStore();
    const basemap = {
      precut: async (tiles: readonly (readonly [number, number, number])[]) => {
        const n = await s.basemap.precut(tiles);
        // The operator cancels while the second batch is being cut.
        if (s.cut.length === 8) void server.db.updateTable('map_downloads').set({ state: 'cancelled', claimed_by: null }).where('id', '=', 'cancel-run').execute();
        return n;
      },
    };
    const runner = createDownloads({ db: server.db, basemap, log: quiet, instanceId: 'F', now, batch: 4 });
    await until(async () => {
      await runner.tick();
      return (await rowOf('cancel-run')).state === 'cancelled';
    }, 'the job cancelled while the runner cuts it');
    const row = await rowOf('cancel-run');
    expect(row.state).toBe('cancelled');
    expect(s.cut.length).toBeLessThan(Number(row.total));
  });

  it('marks a job failed when cutting throws', async () => {
    await insertJob('fail-1', { company_id: 'runner', create_time: 0, ...reserved() });
    const runner = createDownloads({
      db: server.db,
      basemap: { precut: async () => { throw new Error('disk full'); } },
      log: quiet,
      instanceId: 'G',
      now,
    });
    await runner.tick();
    expect(await rowOf('fail-1')).toMatchObject({ state: 'failed', error: 'disk full', claimed_by: null });
  });
});

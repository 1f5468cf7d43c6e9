import { randomUUID } from 'node:crypto';
import { FlightMethod, ResultCode, callFunId, type DataTopic } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { RawDevice, envelope, registerDevice, until } from '../../test/live.js';
import { addResult, addSortie, iso } from '../stats/test-fixtures.js';
import { plannedRoute } from './recorder.js';

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
const funs = ['/sorties/list', '/sorties/track', '/result/list'].map(callFunId);
const T0 = iso('2026-04-01T00:00:00Z');

type Row = { sort_id: string; sn_id: string; device_name: string; mission_type: number; start_time: number; end_time: number; distance: number; count: number };
const list = async (client: TestClient, fields: Record<string, string | number> = {}) => {
  const res = await client.call<{ list: Row[]; total: number }>('sortiesList', fields);
  expect(res.body.code).toBe(ResultCode.OK);
  return res.body.data;
};

let ids: Record<string, string> = {};
beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: 'SL-A', airport_name: 'Hill nest' });
  await registerDevice(server, { sn_id: 'SL-B', airport_name: '', uav_name: 'Lone drone', type: 'alone' });
  await registerDevice(server, { sn_id: 'SL-G', company_id: 'gzGh' });
  const db = server.db;
  ids = {
    // start, duration, distance, count
    short: await addSortie(db, { sn: 'SL-A', start: T0, end: T0 + 100, distance: 900, count: 5, missionType: 1, mission: 'Short' }),
    long: await addSortie(db, { sn: 'SL-A', start: T0 + 1000, end: T0 + 4000, distance: 100, count: 1, missionType: 2, mission: 'Long' }),
    mid: await addSortie(db, { sn: 'SL-B', start: T0 + 2000, end: T0 + 2500, distance: 5000, count: 0, missionType: 1, mission: 'Mid' }),
    // Still flying: its duration runs up to now, the longest of all.
    open: await addSortie(db, { sn: 'SL-A', start: T0 + 3000, end: null, count: 2, missionType: 0, mission: '' }),
  };
  await addSortie(db, { sn: 'SL-G', company: 'gzGh', start: T0 + 5000, distance: 1 });
  wk = await userClient(server, { funList: funs });
  gz = await userClient(server, { funList: funs, companyId: 'gzGh' });
});
afterAll(async () => server?.close());

describe('/sorties/list', () => {
  it('sorts by start time, duration, distance and count, newest / largest first unless asc', async () => {
    const order = async (fields: Record<string, string | number>) => (await list(wk, fields)).list.map((r) => Object.keys(ids).find((k) => ids[k] === r.sort_id));
    expect(await order({})).toEqual(['open', 'mid', 'long', 'short']);
    expect(await order({ asc: 1 })).toEqual(['short', 'long', 'mid', 'open']);
    expect(await order({ order: 'duration' })).toEqual(['open', 'long', 'mid', 'short']);
    expect(await order({ order: 'duration', asc: 1 })).toEqual(['short', 'mid', 'long', 'open']);
    expect(await order({ order: 'distance' })).toEqual(['mid', 'short', 'long', 'open']);
    expect(await order({ order: 'count' })).toEqual(['short', 'open', 'long', 'mid']);
    expect(await order({ order: 'count', asc: 1, size: 2, page: 0 })).toEqual(['mid', 'long']);
  });

  it('filters by route type and names the device (airport, else drone)', async () => {
    const surveys = await list(wk, { mission_type: 1 });
    expect(surveys.total).toBe(2);
    expect(surveys.list.map((r) => [r.sn_id, r.device_name, r.mission_type])).toEqual([
      ['SL-B', 'Lone drone', 1],
      ['SL-A', 'Hill nest', 1],
    ]);
    expect((await list(wk, { mission_type: 2 })).list.map((r) => r.sort_id)).toEqual([ids.long]);
  });

  it('keeps to the company and refuses bad sort keys', async () => {
    const g = await list(gz);
    expect(g.list.map((r) => r.sn_id)).toEqual(['SL-G']);
    expect((await wk.call('sortiesList', { order: 'speed' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('sortiesList', { asc: 2 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('sortiesList', { mission_type: 77 })).body.code).toBe(ResultCode.BAD_REQUEST);
  });
});

describe('/result/list additions', () => {
  it('names the device and filters results with a position', async () => {
    const at = await addResult(server.db, { sn: 'SL-A', takenAt: T0 + 10, lat: 22.5, lng: 114.1 });
    const nowhere = await addResult(server.db, { sn: 'SL-B', takenAt: T0 + 20 });
    await addResult(server.db, { sn: 'SL-G', company: 'gzGh', takenAt: T0 + 30, lat: 1, lng: 1 });
    const all = await wk.call<{ list: { id: string; device_name: string }[]; total: number }>('resultList', {});
    expect(all.body.data.list.map((r) => [r.id, r.device_name])).toEqual([
      [nowhere.id, 'Lone drone'],
      [at.id, 'Hill nest'],
    ]);
    const located = await wk.call<{ list: { id: string }[]; total: number }>('resultList', { located: 1 });
    expect(located.body.data.list.map((r) => r.id)).toEqual([at.id]);
    expect(located.body.data.total).toBe(1);
    expect((await wk.call('resultList', { located: 2 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('resultList', { size: 1000 })).body.code).toBe(ResultCode.OK);
  });
});

describe('planned route', () => {
  const wps = [0, 1, 2].map((i) => ({ lat: 22.5 + i / 1000, lng: 114 + i / 1000, height: 50 + i, hover: 2 }));

  it('is the route as launched: from the logged start index, [] when unreadable', () => {
    expect(plannedRoute(JSON.stringify(wps), undefined)).toEqual(wps.map(({ lat, lng, height }) => ({ lat, lng, height })));
    expect(plannedRoute(JSON.stringify(wps), JSON.stringify({ start_index: 1 }))).toHaveLength(2);
    expect(plannedRoute('not json', undefined)).toEqual([]);
    expect(plannedRoute(JSON.stringify([{ lat: 'x' }]), undefined)).toEqual([]);
  });

  it('the recorder stores it when the sortie starts; /sorties/track answers it; one-key flights have none; data changes are announced', async () => {
    const now = Date.now();
    const fenceId = randomUUID();
    await server.db
      .insertInto('fences')
      .values({ id: fenceId, name: 'F', max_height: 120, boundary: '[]', sn_id: 'SL-A', company_id: 'wk', created_at: now, updated_at: now })
      .execute();
    const missionId = randomUUID();
    await server.db
      .insertInto('missions')
      .values({
        id: missionId,
        name: 'Ridge',
        fence_id: fenceId,
        mission_type: 1,
        height_type: 0,
        auto_speed: 10,
        max_speed: 12,
        default_height: 50,
        return_height: 60,
        finish_action: 20,
        exec_type: 0,
        camera_type: '',
        sensor_width: null,
        sensor_height: null,
        image_width: null,
        image_height: null,
        focal_length: null,
        course_overlap: 0,
        lateral_overlap: 0,
        turn_distance: 0,
        angle: 0,
        interval_height: 0,
        elevation: 0,
        photo_type: 2,
        waypoints: JSON.stringify(wps),
        survey_polygon: null,
        distance: 300,
        est_time: 60,
        breakpoint: null,
        u_id: 'u',
        user_name: 'Planner',
        company_id: 'wk',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const topics: [string, DataTopic][] = [];
    server.app.nest.deps.changes.on('changed', (company, topic) => topics.push([company, topic]));
    const dev = await RawDevice.connect(server, 'SL-A');
    const flightId = `F-${randomUUID()}`;
    await dev.publish(
      'events',
      envelope(FlightMethod.FLIGHT_START, { flight_id: flightId, uav_sn: 'SL-A-UAV', mission_id: missionId, mission_name: null, started_at: now }),
      { qos: 1 },
    );
    const sortieOf = (f: string) => server.db.selectFrom('sorties').selectAll().where('flight_id', '=', f).executeTakeFirst();
    await until(async () => (await sortieOf(flightId)) !== undefined, 'the sortie of the flight');
    const row = (await sortieOf(flightId))!;
    expect(row.mission_name).toBe('Ridge');
    expect(JSON.parse(row.plan!)).toEqual(wps.map(({ lat, lng, height }) => ({ lat, lng, height })));
    const track = await wk.call<{ planned: unknown[]; sortie: { device_name: string } }>('sortiesTrack', { id: row.id });
    expect(track.body.data.planned).toHaveLength(3);
    expect(track.body.data.sortie.device_name).toBe('Hill nest');
    await until(() => topics.some(([c, t]) => c === 'wk' && t === 'sorties'), 'the sorties changed notice on start');
    topics.length = 0;

    await dev.publish('events', envelope(FlightMethod.FLIGHT_END, { flight_id: flightId, ended_at: now + 60_000, distance: 321, place: 3, photos: 0 }), { qos: 1 });
    await until(async () => (await sortieOf(flightId))?.end_time !== null, 'the sortie ended');
    await until(() => topics.some(([c, t]) => c === 'wk' && t === 'sorties'), 'the sorties changed notice on end');

    // A one-key flight: no plan.
    const oneKey = `F-${randomUUID()}`;
    await dev.publish('events', envelope(FlightMethod.FLIGHT_START, { flight_id: oneKey, uav_sn: 'SL-A-UAV', mission_id: null, mission_name: null, started_at: now + 120_000 }), {
      qos: 1,
    });
    await until(async () => (await sortieOf(oneKey)) !== undefined, 'the one-key sortie');
    expect((await sortieOf(oneKey))!.plan).toBeNull();
    const t2 = await wk.call<{ planned: unknown[] }>('sortiesTrack', { id: (await sortieOf(oneKey))!.id });
    expect(t2.body.data.planned).toEqual([]);
    // Another company does not see it.
    expect((await gz.call('sortiesTrack', { id: row.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    await dev.end();
  });
});

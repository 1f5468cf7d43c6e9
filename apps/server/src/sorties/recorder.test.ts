import { randomUUID } from 'node:crypto';
import { FlightMethod, PushMsgId, ResultCode, callFunId, topicOf, type DroneTelemetry } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { RawDevice, envelope, live, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { DEFAULT_RECORDER_OPTIONS, DEVICE_CLOCK_TOLERANCE_MS, trackTime } from './recorder.js';
import { keepPoint, type TrackPoint } from './track.js';
import { haversineDistance } from '@nest/geo';
import { droneTelemetry } from '@nest/contracts/test-fixtures';

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
const SN = 'SORTIE-SN-1';
const funs = ['/sorties/list', '/sorties/track', '/sorties/delete', '/alternate/list', '/result/list'].map(callFunId);

/** The drone of SN in the air at a point, in a flight state (2 flying, 3 returning). */
const drone = (lat: number, lng: number, flightState: DroneTelemetry['flight_state'] = 2) => droneTelemetry({ sn: `${SN}-UAV`, lat, lng, alt: 120, height: 90, h_speed: 8, flight_state: flightState });

const sortiesOf = (sn: string) => server.db.selectFrom('sorties').selectAll().where('sn_id', '=', sn).execute();
const event = (dev: RawDevice, method: string, data: unknown) => dev.publish('events', envelope(method, data), { qos: 1 });

beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: SN });
  wk = await userClient(server, { funList: funs });
  gz = await userClient(server, { funList: funs, companyId: 'gzGh' });
});
afterAll(async () => server?.close());

describe('track downsampling', () => {
  const p = (t: number, lat: number, state = 2): TrackPoint => ({ t, lat, lng: 114, alt: 0, height: 0, speed: 0, heading: 0, battery: 0, flight_state: state });
  it('keeps a point every 2 s, or sooner after 15 m or a flight state change', () => {
    expect(keepPoint(null, p(0, 22))).toBe(true);
    expect(keepPoint(p(0, 22), p(500, 22))).toBe(false);
    expect(keepPoint(p(0, 22), p(2000, 22))).toBe(true);
    expect(keepPoint(p(0, 22), p(500, 22.0002))).toBe(true); // ~22 m
    expect(keepPoint(p(0, 22), p(500, 22.0001))).toBe(false); // ~11 m
    expect(keepPoint(p(0, 22, 2), p(500, 22, 3))).toBe(true);
    expect(haversineDistance({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo(111_195, -2);
  });
});

describe('track point time', () => {
  const received = 1_800_000_000_000;
  it("is the device's own stamp when its clock is sane, so every instance files a message under one time", () => {
    expect(trackTime({ telemetryAt: received, telemetryTs: received - 150 })).toBe(received - 150);
    expect(trackTime({ telemetryAt: received, telemetryTs: received + DEVICE_CLOCK_TOLERANCE_MS })).toBe(received + DEVICE_CLOCK_TOLERANCE_MS);
  });
  it('is the time of receipt when the device clock is off or unknown', () => {
    expect(trackTime({ telemetryAt: received, telemetryTs: received - DEVICE_CLOCK_TOLERANCE_MS - 1 })).toBe(received);
    expect(trackTime({ telemetryAt: received, telemetryTs: 0 })).toBe(received);
    expect(trackTime({ telemetryAt: received, telemetryTs: null })).toBe(received);
  });
});

describe('sortie recorder', () => {
  it('records a sortie from flight.start, its track from telemetry, closes it on flight.end with the result count', async () => {
    const dev = await RawDevice.connect(server, SN);
    const flightId = `F-${randomUUID()}`;
    await server.db
      .insertInto('command_log')
      .values({ id: randomUUID(), cmd_id: randomUUID(), sn_id: SN, company_id: 'wk', u_id: 'u-1', user_name: 'Pilot Li', cmd_type: 1, method: FlightMethod.TAKEOFF, flight_id: flightId, created_at: Date.now() })
      .execute();
    const started = Math.floor(Date.now() / 1000);
    await event(dev, FlightMethod.FLIGHT_START, { flight_id: flightId, uav_sn: `${SN}-UAV`, mission_id: null, mission_name: 'Dam patrol', started_at: started * 1000 });
    // A repeat (another tid) is ignored; bad data is ignored.
    await event(dev, FlightMethod.FLIGHT_START, { flight_id: flightId, uav_sn: `${SN}-UAV`, mission_id: null, mission_name: 'Dam patrol', started_at: started * 1000 });
    await event(dev, FlightMethod.FLIGHT_START, { flight_id: 42 });
    await until(async () => (await sortiesOf(SN)).length === 1, 'the sortie');
    const [sortie] = await sortiesOf(SN);
    expect(sortie).toMatchObject({ flight_id: flightId, uav_id: `${SN}-UAV`, company_id: 'wk', mission_name: 'Dam patrol', u_id: 'u-1', user_name: 'Pilot Li' });
    expect(Number(sortie!.start_time)).toBe(started);
    await until(() => server.app.nest.services.sorties.openOf(SN) === sortie!.id, 'the open sortie');

    // 10 Hz telemetry for ~1.2 s by the device's own clock (its time stamps, which the track keeps when they are
    // sane), moving ~5 m per frame: about one point per 15 m, plus the state change.
    const t0 = Date.now();
    for (let i = 0; i < 12; i++) {
      const frame = { ...envelope('telemetry', { ...nestTelemetry(), drone: drone(22.54 + i * 0.000045, 114.05, i < 11 ? 2 : 3) }), ts: t0 + i * 100 };
      await dev.publish('telemetry', frame, { qos: 1 });
    }
    // The recorder takes each telemetry as the link hands it on.
    await until(() => live(server).link.device(SN)?.telemetryTs === t0 + 1100, 'the last telemetry handled');
    // A result of this flight (the upload path is tested in media/).
    await server.db
      .insertInto('results')
      .values({ id: randomUUID(), media_id: 'm-1', sn_id: SN, company_id: 'wk', sort_id: sortie!.id, type: 10, file_name: 'a.jpg', url: '/media/results/x.jpg', mime: 'image/jpeg', size: 1, lat: 0, lng: 0, height: 0, taken_at: Date.now(), created_at: started })
      .execute();

    // While it flies, lists show the distance flown so far (about 5 m per frame).
    await server.app.nest.services.sorties.flush();
    const flying = await wk.call<{ list: { sort_id: string; distance: number; end_time: number }[] }>('sortiesList', { sn_id: SN, page: 0, size: 5 });
    const open = flying.body.data.list.find((s) => s.sort_id === sortie!.id);
    expect(open?.distance).toBeGreaterThan(40);
    expect(open?.distance).toBeLessThan(60);

    const track = await wk.call<{ sortie: { sort_id: string; end_time: number }; points: { t: number; lat: number; flight_state: number }[] }>('sortiesTrack', { id: sortie!.id });
    expect(track.body.code).toBe(ResultCode.OK);
    const pts = track.body.data.points;
    expect(pts.length).toBeGreaterThanOrEqual(3);
    expect(pts.length).toBeLessThanOrEqual(6);
    expect(pts.at(-1)!.flight_state).toBe(3);
    expect(track.body.data.sortie.end_time).toBe(0);

    await event(dev, FlightMethod.FLIGHT_END, { flight_id: flightId, ended_at: (started + 600) * 1000, distance: 1234.5, place: 3, photos: 1 });
    await until(async () => (await sortiesOf(SN))[0]!.end_time !== null, 'the closed sortie');
    const [closed] = await sortiesOf(SN);
    expect(closed).toMatchObject({ place: 3 });
    expect(Number(closed!.end_time)).toBe(started + 600);
    expect(Number(closed!.distance)).toBe(1234.5);
    expect(Number(closed!.count)).toBe(1);

    const list = await wk.call<{ list: { sort_id: string; count: number; user_name: string }[]; total: number }>('sortiesList', { search: 'pilot li' });
    expect(list.body.data.list.map((s) => [s.sort_id, s.count, s.user_name])).toEqual([[sortie!.id, 1, 'Pilot Li']]);
    const other = await gz.call<{ list: unknown[]; total: number }>('sortiesList', {});
    expect(other.body.data.total).toBe(0);
    expect((await gz.call('sortiesTrack', { id: sortie!.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await gz.call('sortiesDelete', { ids: sortie!.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('sortiesDelete', { ids: sortie!.id })).body.code).toBe(ResultCode.OK);
    expect((await wk.call<{ total: number }>('sortiesList', {})).body.data.total).toBe(0);
    expect((await wk.call<{ total: number }>('resultList', {})).body.data.total).toBe(0);
    await dev.end();
  });

  it('closes a sortie left open when the device reports a new flight, and pushes 360 to watchers', async () => {
    const sn = 'SORTIE-SN-2';
    await registerDevice(server, { sn_id: sn });
    const dev = await RawDevice.connect(server, sn);
    const pushes: unknown[] = [];
    const hub = server.app.nest.hub;
    const publish = hub.publish.bind(hub);
    hub.publish = (s: string, msgId: number, data: unknown) => {
      if (msgId === PushMsgId.SORTIE) pushes.push(data);
      return publish(s, msgId, data);
    };
    const a = `F-${randomUUID()}`;
    const b = `F-${randomUUID()}`;
    await event(dev, FlightMethod.FLIGHT_START, { flight_id: a, uav_sn: 'U', mission_id: null, mission_name: null, started_at: 1_700_000_000 });
    await until(async () => (await sortiesOf(sn)).length === 1, 'the first sortie');
    await event(dev, FlightMethod.FLIGHT_START, { flight_id: b, uav_sn: 'U', mission_id: null, mission_name: null, started_at: 1_700_000_500 });
    await until(async () => (await sortiesOf(sn)).length === 2, 'the second sortie');
    const rows = await sortiesOf(sn);
    expect(rows.find((r) => r.flight_id === a)!.end_time).not.toBeNull();
    expect(rows.find((r) => r.flight_id === b)!.end_time).toBeNull();
    await until(() => pushes.length === 3, 'three 360 pushes');
    expect(pushes.map((p) => (p as { state: string }).state)).toEqual(['started', 'ended', 'started']);
    hub.publish = publish;
    await dev.end();
  });

  it('stores an alternate-landing record once', async () => {
    const dev = await RawDevice.connect(server, SN);
    await dev.subscribe(topicOf(SN, 'events_reply'));
    const rec = { flight_id: 'F-ALT', reason: 2, solution: 1, timestamp: 1_700_000_000_000, drone_int: 2, altn_int: 0, place_int: 1, lat: 22.5, lng: 114.1 };
    await event(dev, FlightMethod.ALTERNATE, rec);
    await event(dev, FlightMethod.ALTERNATE, rec);
    await event(dev, FlightMethod.ALTERNATE, { ...rec, reason: 9 });
    // Each event (a tid of its own) is acknowledged once the recorder is done with it.
    await until(() => dev.received.filter((r) => r.topic === topicOf(SN, 'events_reply')).length === 3, 'the three events acknowledged');
    const list = await wk.call<{ list: { flight_id: string; reason: number; lat: number; place_int: number }[]; total: number }>('alternateList', { sn_id: SN });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0]).toMatchObject({ flight_id: 'F-ALT', reason: 2, lat: 22.5, place_int: 1 });
    expect((await gz.call<{ total: number }>('alternateList', {})).body.data.total).toBe(0);
    await dev.end();
  });
  it('attaches results that arrived before their sortie', async () => {
    const sn = 'SORTIE-SN-3';
    await registerDevice(server, { sn_id: sn });
    const dev = await RawDevice.connect(server, sn);
    const flightId = `F_${randomUUID()}%`;
    const resultId = randomUUID();
    await server.db
      .insertInto('results')
      .values({ id: resultId, media_id: 'early-1', sn_id: sn, company_id: 'wk', sort_id: null, type: 10, file_name: 'a.jpg', url: '/media/results/y.jpg', mime: 'image/jpeg', size: 1, lat: 0, lng: 0, height: 0, taken_at: Date.now(), created_at: 1 })
      .execute();
    await server.db
      .insertInto('media_uploads')
      .values({ media_id: 'early-1', sn_id: sn, meta: JSON.stringify({ flight_id: flightId }), size: 1, received: 1, sha256: 'x', result_id: resultId, created_at: 1, updated_at: 1 })
      .execute();
    await event(dev, FlightMethod.FLIGHT_START, { flight_id: flightId, uav_sn: 'U', mission_id: null, mission_name: null, started_at: 1_700_000_000 });
    await until(async () => (await sortiesOf(sn)).length === 1, 'the sortie');
    // The result is attached first, then the sortie's count is brought up to date: wait for the count.
    await until(async () => Number((await sortiesOf(sn))[0]!.count) === 1, 'the sortie counting the early result');
    const [sortie] = await sortiesOf(sn);
    const attached = await server.db.selectFrom('results').select('sort_id').where('id', '=', resultId).executeTakeFirstOrThrow();
    expect(attached.sort_id).toBe(sortie!.id);
    await dev.end();
  });
  it('closes a sortie that went quiet after the idle timeout, and carries open sorties over a restart', async () => {
    const sn = 'SORTIE-SN-4';
    await registerDevice(server, { sn_id: sn });
    const dev = await RawDevice.connect(server, sn);
    const flightId = `F-${randomUUID()}`;
    // The recorder last heard of the device at this time or later (the sweep compares with its clock).
    const heard = Date.now();
    await event(dev, FlightMethod.FLIGHT_START, { flight_id: flightId, uav_sn: 'U', mission_id: null, mission_name: 'Quiet', started_at: 1_700_000_000 });
    await until(async () => (await sortiesOf(sn)).length === 1, 'the sortie');
    const recorder = server.app.nest.services.sorties;
    await until(() => recorder.openOf(sn) !== null, 'the open sortie');
    // A second app on the same database picks the open sortie up.
    const other = await server.rebuild();
    const otherRecorder = other.nest.services.sorties;
    await until(() => otherRecorder.openOf(sn) !== null, 'the open sortie carried over');
    await otherRecorder.stop();
    await recorder.sweep(heard + DEFAULT_RECORDER_OPTIONS.idleMs - 1);
    expect((await sortiesOf(sn))[0]!.end_time).toBeNull();
    await recorder.sweep(Date.now() + DEFAULT_RECORDER_OPTIONS.idleMs + 1000);
    expect((await sortiesOf(sn))[0]!.end_time).not.toBeNull();
    expect(recorder.openOf(sn)).toBeNull();
    await dev.end();
  });
});

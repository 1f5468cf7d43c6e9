import { randomUUID } from 'node:crypto';
import { FlightMethod, callFunId } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { live, registerDevice, until } from '../../test/live.js';
import { loadSimulator, type SimFleet } from '../../test/simulator.js';

/**
 * The whole loop with the real simulator: takeoff command -> flight.start -> telemetry track -> a photo
 * uploaded over HTTP -> landing -> flight.end, and the sortie with its track and count. Skipped while the
 * simulator has no media uploader (it is built in parallel).
 */
const sim = await loadSimulator();
const hasMedia = 'uploadMedia' in sim;
const SN = 'SORTIE-SIM-1';

let server: TestServer;
let fleet: SimFleet | null = null;
let wk: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: SN });
  wk = await userClient(server, { funList: ['/sorties/list', '/sorties/track', '/result/list'].map(callFunId) });
});
afterAll(async () => {
  await fleet?.stop();
  await server?.close();
});

describe('sorties from the simulator', () => {
  it.skipIf(!hasMedia)('records a simulated flight with its track and its uploaded photo', async () => {
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const l = live(server);
    fleet = await sim.startFleet({
      brokerUrl: l.brokerUrl,
      // Calm weather: the drone lands at its nest (a diversion would not change what is checked, but no chance).
      devices: [{ sn: SN, password: l.devicePassword(SN), kind: 'stable', name: SN, uavSn: `${SN}-UAV`, home: { lat: 22.54, lng: 114.05, alt: 30 }, calm: true }],
      rateHz: 5,
      ffmpegPath: null,
      validate: true,
      seed: 1,
      // The takeoff and landing flows in model time, fast: they are not what is checked here.
      timeScale: 60,
      mediaUrl: base,
    } as Parameters<typeof sim.startFleet>[0]);
    await until(() => l.link.isOnline(SN), 'the simulator online');
    const flightId = `F-${randomUUID()}`;
    const takeoff = await l.link.command(SN, FlightMethod.TAKEOFF, { flight_id: flightId, mission: null, height: 30 }, { bid: flightId });
    expect(takeoff.status).toBe('ok');
    const sortie = () => server.db.selectFrom('sorties').selectAll().where('flight_id', '=', flightId).executeTakeFirst();
    await until(async () => (await sortie()) !== undefined, 'the sortie opened by flight.start');
    // In the air (flight.start came when it left the ground), it takes a photo; then its result.
    expect((await l.link.command(SN, FlightMethod.PHOTO, {})).status).toBe('ok');
    await until(async () => (await server.db.selectFrom('results').select('id').where('sn_id', '=', SN).execute()).length > 0, 'the result of the photo');
    expect((await l.link.command(SN, FlightMethod.LAND, {})).status).toBe('ok');
    await until(async () => (await sortie())?.end_time !== null, 'the sortie closed by flight.end');
    const row = (await sortie())!;
    expect(Number(row.count)).toBeGreaterThanOrEqual(1);
    const track = await wk.call<{ points: unknown[] }>('sortiesTrack', { id: row.id });
    expect(track.body.data.points.length).toBeGreaterThan(1);
    const results = await wk.call<{ list: { sort_id: string; thumb_url: string }[] }>('resultList', { sort_id: row.id });
    expect(results.body.data.list[0]!.thumb_url).not.toBe('');
  });
});

/**
 * Results from DJI docks: the simulator's emulated Dock 2 flies a route with a photo action, uploads the
 * photo through the mounted upload ingest (storage_config_get, S3 PutObject) and reports it with
 * file_upload_callback; the media feature makes the dock's result before the dock is answered.
 */
import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DjiResult, FlightMethod, ResultCode, missionPlanSchema, type Page, type ResultItem } from '@nest/contracts';
import type { DjiDock } from '@nest/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DJI_HOME as HOME, startDjiTestServer, startEmulatedDock } from '../link/dji/testing.js';
import { userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { listen, live, until } from '../../test/live.js';
import { storedMediaId } from './stored.js';

const GW = 'DJI-MED1';
const PHOTO_AT = { lat: HOME.lat + 0.001, lng: HOME.lng + 0.0005 };

let server: TestServer;
let dock: DjiDock;
let base: string;
let viewer: TestClient;
/** What the flight in the first case left behind, for the later cases. */
let flown: { flightId: string; objectKey: string; tid: string; bid: string } | null = null;

const resultsOfDock = () => server.db.selectFrom('results').selectAll().where('sn_id', '=', GW).execute();

beforeAll(async () => {
  server = await startDjiTestServer();
  base = (await listen(server)).replace(/^ws/, 'http');
  dock = await startEmulatedDock(server, GW, { telemetry: true, timeScale: 100 });
  viewer = await userClient(server, { companyId: 'wk', funList: ['result_list'] });
});
afterAll(async () => {
  await dock?.stop();
  await server?.close();
});

describe('results from DJI docks', () => {
  it("a route's photo is uploaded through the ingest and becomes the dock's result with its position and sortie", async () => {
    const plan = missionPlanSchema.parse({
      mission_id: randomUUID(),
      name: 'Photo run',
      mission_type: 1,
      height_type: 0,
      auto_speed: 12,
      max_speed: 15,
      default_height: 40,
      return_height: 50,
      finish_action: 20,
      photo_type: 2,
      waypoints: [
        { lat: HOME.lat + 0.0005, lng: HOME.lng, height: 40 },
        { ...PHOTO_AT, height: 40, takephoto: 1 },
      ],
    });
    const flightId = randomUUID();
    const uploaded = new Promise<{ object_key: string; result: number; tid: string; bid: string; flight_id: string }>((resolve) => dock.once('mediaUploaded', resolve));
    const r = await live(server).link.command(GW, FlightMethod.TAKEOFF, { flight_id: flightId, mission: plan, height: 40 });
    expect(r.status).toBe('ok');
    const u = await uploaded;
    expect(u).toMatchObject({ flight_id: flightId, result: 0 });
    expect(u.object_key.startsWith(`dji/${GW}/${flightId}/`)).toBe(true);
    flown = { flightId, objectKey: u.object_key, tid: u.tid, bid: u.bid };

    // Acknowledged only once stored: the row is there when the dock hears back.
    const rows = await resultsOfDock();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ type: 10, mime: 'image/jpeg', media_id: storedMediaId(u.object_key), width: 320, height_px: 240 });
    expect(row.lat).toBeCloseTo(PHOTO_AT.lat, 4);
    expect(row.lng).toBeCloseTo(PHOTO_AT.lng, 4);
    expect(row.height).toBeGreaterThan(30);
    const sortie = await server.db.selectFrom('sorties').select(['id', 'sn_id']).where('flight_id', '=', flightId).executeTakeFirstOrThrow();
    expect(sortie.sn_id).toBe(GW);
    expect(row.sort_id).toBe(sortie.id);
    await until(async () => Number((await server.db.selectFrom('sorties').select('count').where('id', '=', sortie.id).executeTakeFirstOrThrow()).count) === 1, 'the sortie counts the result');

    // The dock's upload object became the result file: moved into the results layout.
    const media = server.app.nest.deps.media;
    expect(await media.stat(u.object_key)).toBeNull();
    expect(row.url).toMatch(/^\/media\/results\/\d{4}-\d{2}\/[0-9a-f-]+\.jpg$/);

    const listed = await viewer.call<Page<ResultItem>>('resultList', { page: 0, sn_id: GW });
    expect(listed.body.code).toBe(ResultCode.OK);
    expect(listed.body.data.list).toHaveLength(1);
    const item = listed.body.data.list[0]!;
    expect(item.thumb_url).not.toBe('');
    const file = await fetch(`${base}${item.url}`);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(dock.mediaPending()).toBe(0);
  });

  it('a re-sent callback makes no second result; a missing object or one outside the dock prefix is refused and makes none', async () => {
    expect(flown).not.toBeNull();
    const { flightId, objectKey, tid, bid } = flown!;
    const file = (key: string) => ({ object_key: key, name: key.slice(key.lastIndexOf('/') + 1), ext: { flight_id: flightId }, metadata: { shoot_position: PHOTO_AT } });
    expect(await dock.mediaCallback(file(objectKey), { tid, bid })).toBe(0);
    // The same file reported again under new ids: still its one result.
    expect(await dock.mediaCallback(file(objectKey))).toBe(0);
    expect(await dock.mediaCallback(file(`dji/${GW}/${flightId}/DJI_missing_0009_V.jpeg`))).toBe(DjiResult.MEDIA_REFUSED);
    expect(await dock.mediaCallback(file(`dji/OTHER-DOCK/${flightId}/DJI_x_0001_V.jpeg`))).toBe(DjiResult.MEDIA_REFUSED);
    expect(await dock.mediaCallback(file(`dji/${GW}/../OTHER-DOCK/x.jpeg`))).toBe(DjiResult.MEDIA_REFUSED);
    expect(await resultsOfDock()).toHaveLength(1);
  });

  it('an upload with credentials the server did not issue writes nothing', async () => {
    const client = new S3Client({
      endpoint: `${base}/s3`,
      forcePathStyle: true,
      region: 'us-east-1',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: 'DJIFORGED', secretAccessKey: 'forged-secret', sessionToken: 'forged-token' },
      maxAttempts: 1,
    });
    try {
      const key = `dji/${GW}/forged/DJI_forged_0001_V.jpeg`;
      await expect(client.send(new PutObjectCommand({ Bucket: 'nest-media', Key: key, Body: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) }))).rejects.toThrow();
      expect(await server.app.nest.deps.media.stat(key)).toBeNull();
    } finally {
      client.destroy();
    }
  });
});

// Database: SQLite only: live video of a DJI dock (ingest, playlists, live_start_push / live_stop_push); the DJI link's stored state is tested on both databases by dji.test.ts.
/**
 * Live video of a DJI dock through the product's RTMP ingest, against the simulator's emulated Dock 2 with
 * its test picture: a watched dock gets live_start_push with the ingest's keyed RTMP URL, its stream becomes
 * the HLS playlist served under the signed live path, and live_stop_push follows the last watcher leaving.
 */
import { once } from 'node:events';
import { DjiMethod } from '@nest/contracts';
import type { DjiDock } from '@nest/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDjiTestServer, startEmulatedDock } from './testing.js';
import type { TestServer } from '../../../test/helpers.js';
import { live, until } from '../../../test/live.js';
import { mediaLinks } from '../../videos/links.js';

const GW = 'DJI-LIVE1';
let server: TestServer;
let dock: DjiDock;

beforeAll(async () => {
  server = await startDjiTestServer({ config: { videoIdleStopMs: 200 } });
  dock = await startEmulatedDock(server, GW, { liveVideo: {} });
});
afterAll(async () => {
  await dock?.stop();
  await server?.close();
});

describe('DJI live video through the RTMP ingest', () => {
  it('plays a watched dock as HLS and stops the push after the last watcher leaves', async () => {
    const video = live(server).video;
    const watcher = {};
    const started = once(dock, 'liveStart') as Promise<[{ url: string }]>;
    video.watch(GW, watcher);
    const [{ url }] = await started;
    expect(url).toMatch(new RegExp(`^rtmp://127\\.0\\.0\\.1:\\d+/live/${GW}\\?key=[0-9a-f]{32}$`));

    // The emulator's picture becomes the playlist the console reads on its signed path.
    const path = (await mediaLinks(server.db)).live('/live', GW);
    let body = '';
    await until(async () => {
      const res = await server.app.inject({ method: 'GET', url: path });
      body = res.body;
      return res.statusCode === 200 && /seg-\d{5}\.ts/.test(body);
    }, 'the HLS playlist of the dock', 30_000);
    expect(body).toContain('#EXTM3U');

    const stopped = once(dock, 'liveStop');
    video.unwatch(GW, watcher);
    await stopped;
    expect(dock.commands.filter((c) => c.method === DjiMethod.LIVE_STOP_PUSH)).toHaveLength(1);
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaUploadStart } from '@nest/contracts';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { live, registerDevice } from '../../test/live.js';
import { loadSimulator } from '../../test/simulator.js';

/** What this test needs of the simulator's media side (looked up at run time: it may not be there yet). */
interface SimMedia {
  makePhoto?: (o: { lat: number; lng: number; alt: number; takenAt: number; width?: number; height?: number }) => Buffer;
  uploadMedia?: (o: {
    baseUrl: string;
    sn: string;
    password: string;
    meta: Omit<MediaUploadStart, 'size' | 'sha256'>;
    body: Buffer;
    chunkBytes?: number;
    maxAttempts?: number;
  }) => Promise<{ offset: number; complete: boolean }>;
}
const sim = (await loadSimulator()) as unknown as SimMedia;
const SN = 'MEDIA-SIM-1';

let server: TestServer;
let base: string;
beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: SN });
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server?.close());

describe('simulator uploads to the real server', () => {
  it.skipIf(!sim.makePhoto || !sim.uploadMedia)('a simulator photo arrives as a result with its thumbnail', async () => {
    const takenAt = Date.now();
    const body = sim.makePhoto!({ lat: 22.54, lng: 114.05, alt: 120, takenAt });
    const mediaId = randomUUID();
    const res = await sim.uploadMedia!({
      baseUrl: base,
      sn: SN,
      password: live(server).devicePassword(SN),
      meta: {
        media_id: mediaId,
        flight_id: null,
        type: 10,
        file_name: 'SIM_0001.JPG',
        mime: 'image/jpeg',
        taken_at: takenAt,
        lat: 22.54,
        lng: 114.05,
        height: 90,
        waypoint_index: null,
        width: null,
        height_px: null,
        duration: null,
      },
      body,
      chunkBytes: 256 * 1024,
      maxAttempts: 3,
    });
    expect(res.complete).toBe(true);
    const row = await server.db.selectFrom('results').selectAll().where('media_id', '=', mediaId).executeTakeFirstOrThrow();
    const file = (url: string) => path.join(server.dataDir, url.replace(/^\//, ''));
    expect(await readFile(file(row.url))).toEqual(body);
    expect(row.thumb_url).not.toBe('');
    expect(existsSync(file(row.thumb_url))).toBe(true);
    expect(jpeg.decode(await readFile(file(row.thumb_url))).width).toBe(320);
    // Pixel size read from the JPEG (after the simulator's EXIF segment).
    const img = jpeg.decode(body);
    expect([row.width, row.height_px]).toEqual([img.width, img.height]);
  });
});

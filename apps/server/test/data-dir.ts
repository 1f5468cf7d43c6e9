import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateKeys } from '../src/auth/keys.js';
import { Basemap, DEFAULT_PREBUILD_ZOOM, basemapFile } from '../src/maps/basemap.js';

/**
 * What a server makes on its first start and what costs seconds of CPU each time: the two RSA key pairs
 * (auth/keys.ts) and the offline basemap cut to its prebuild zoom (maps/basemap.ts), which a server on an
 * empty directory cuts in the background while it serves.
 */
export async function prepareDataDir(dir: string): Promise<void> {
  await loadOrCreateKeys(dir);
  const file = basemapFile(dir);
  await mkdir(path.dirname(file), { recursive: true });
  const basemap = new Basemap(file);
  try {
    await basemap.build(DEFAULT_PREBUILD_ZOOM);
  } finally {
    await basemap.close();
  }
}

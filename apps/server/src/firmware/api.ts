import type { Database } from '../db/index.js';
import { signedLink } from '../storage/links.js';
import { DOWNLOAD_PURPOSE, downloadPath } from './store.js';

/**
 * A signed, expiring path (under the device service base) to a package's download, for devices that fetch
 * it without the device credentials (a DJI dock's `ota_create` file_url once prefixed with its HTTP base).
 */
export function firmwareDeviceLink(db: Database, deviceBase: string, id: string): Promise<string> {
  return signedLink(db, downloadPath(deviceBase, id), DOWNLOAD_PURPOSE, id);
}

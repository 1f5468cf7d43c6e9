import { LocalMediaStore } from './local.js';
import { S3MediaStore } from './s3.js';
import type { MediaStoreConfig } from './config.js';
import type { MediaStore } from './store.js';

export type { MediaStoreConfig } from './config.js';
export { mediaStoreConfig } from './config.js';
export { LocalMediaStore } from './local.js';
export { S3MediaStore } from './s3.js';
export * from './store.js';
export { sendObject } from './serve.js';

/** The configured store: the local one keeps DATA_DIR's layout (DATA_DIR/media, /firmware, /teaching ...). */
export function createMediaStore(config: { dataDir: string; mediaStore: MediaStoreConfig }): MediaStore {
  return config.mediaStore.kind === 's3' ? new S3MediaStore(config.mediaStore) : new LocalMediaStore(config.dataDir);
}

import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { resultHandlers } from './handlers.js';
import { StoredMediaResults } from './stored.js';
import { registerMediaUpload } from './upload.js';
import { registerResultZip } from './zip.js';

/**
 * Results: device media uploads (upload.ts), files devices stored in the upload ingest themselves
 * (stored.ts), the result archive (zip.ts) and the result calls (handlers.ts); README.md has the decisions.
 */
export const mediaModule: FeatureModule<AppDeps & { hub: PushHub }> = {
  name: 'media',
  start: (s) => {
    const stored = new StoredMediaResults(s, s.hub);
    stored.start();
    return stored;
  },
  routes: async (app, s) => {
    registerResultZip(app, s);
    await registerMediaUpload(app, s, s.hub);
  },
  calls: (s) => resultHandlers(s),
};

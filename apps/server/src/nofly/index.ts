import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { noFlyHandlers } from './handlers.js';

/** Company no-fly zones: the /nofly/* calls (README.md). Routes, takeoff and timed tasks read them through api.ts. */
export const noFlyModule: FeatureModule<AppDeps> = {
  name: 'nofly',
  calls: (s) => noFlyHandlers(s),
};

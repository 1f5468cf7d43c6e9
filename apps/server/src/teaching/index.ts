import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { teachingHandlers } from './handlers.js';
import { registerTeachingRoutes } from './routes.js';

/** Teaching videos: their file routes and calls. */
export const teachingModule: FeatureModule<AppDeps> = {
  name: 'teaching',
  routes: (app, s) => registerTeachingRoutes(app, s),
  calls: (s) => teachingHandlers(s),
};

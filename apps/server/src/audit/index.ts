import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { auditHandlers } from './handlers.js';

/** The audit log calls. */
export const auditModule: FeatureModule<AppDeps> = {
  name: 'audit',
  calls: (s) => auditHandlers(s),
};

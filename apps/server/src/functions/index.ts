import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { functionHandlers } from './handlers.js';
import { seedFunctionRows } from './seed.js';

/** Functions (permissions): the catalogue, seeded with the built-in functions, and its calls. */
export const functionsModule: FeatureModule<AppDeps> = {
  name: 'functions',
  seed: async (db) => {
    await seedFunctionRows(db);
  },
  calls: (s) => functionHandlers(s),
};

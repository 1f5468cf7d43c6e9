import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { departmentHandlers } from './handlers.js';

/** Departments (README.md): the /department/* calls. */
export const departmentsModule: FeatureModule<AppDeps> = {
  name: 'departments',
  calls: (s) => departmentHandlers(s),
};

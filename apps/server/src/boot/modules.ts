import { alarmsModule } from '../alarms/index.js';
import { auditModule } from '../audit/index.js';
import { authModule } from '../auth/index.js';
import { departmentsModule } from '../departments/index.js';
import { devicesModule } from '../devices/index.js';
import { deviceTypesModule } from '../deviceTypes/index.js';
import { firmwareModule } from '../firmware/index.js';
import { flightModule } from '../flight/index.js';
import { functionsModule } from '../functions/index.js';
import { groupsModule } from '../groups/index.js';
import { maintenanceModule } from '../maintenance/index.js';
import { mapsModule } from '../maps/index.js';
import { mediaModule } from '../media/index.js';
import { planningModule } from '../missions/index.js';
import { networkModule } from '../network/index.js';
import { noFlyModule } from '../nofly/index.js';
import { sortiesModule } from '../sorties/index.js';
import { statsModule } from '../stats/index.js';
import { tasksModule } from '../tasks/index.js';
import { teachingModule } from '../teaching/index.js';
import { usersModule } from '../users/index.js';
import { videosModule } from '../videos/index.js';
import type { FeatureModule } from './module.js';
import type { Services } from './services.js';

/**
 * Every server feature, in start order (flight before what flies: timed tasks; the sortie recorder before
 * the alarm monitor that asks it). Adding a feature: its folder's index.ts exports a FeatureModule, listed here.
 */
export const MODULES: readonly FeatureModule<Services>[] = [
  flightModule,
  sortiesModule,
  tasksModule,
  alarmsModule,
  statsModule,
  mediaModule,
  videosModule,
  mapsModule,
  planningModule,
  noFlyModule,
  firmwareModule,
  teachingModule,
  maintenanceModule,
  groupsModule,
  authModule,
  usersModule,
  functionsModule,
  auditModule,
  departmentsModule,
  devicesModule,
  deviceTypesModule,
  networkModule,
];

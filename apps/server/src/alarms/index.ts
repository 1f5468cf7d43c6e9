import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { alarmHandlers } from './handlers.js';
import { runAlarmMonitor, type AlarmMonitor } from './monitor.js';

export { AlarmMonitor, type OpenSorties } from './monitor.js';

/** Alarms (README.md): the monitor following device traffic, pushes 370, and the /alarm/* calls. */
export const alarmsModule: FeatureModule<AppDeps & { hub: PushHub; alarms: AlarmMonitor; log: Parameters<typeof runAlarmMonitor>[1] }> = {
  name: 'alarms',
  start: (s) => runAlarmMonitor(s.alarms, s.log),
  calls: (s) => alarmHandlers(s, s.hub),
};

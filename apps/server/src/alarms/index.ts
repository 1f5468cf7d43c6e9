export { alarmHandlers } from './handlers.js';
export { AlarmMonitor, monitors, startAlarmMonitor } from './monitor.js';

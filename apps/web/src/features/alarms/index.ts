/**
 * Alarms: the alarm center, the live alarm feed and the alarm rules. Other features reach this one only
 * through this module (the data screen's alarm feed and alarm links).
 */
export { canListAlarms, describeAlarm, levelColor, openAlarmCenter, useNews } from './alarms';

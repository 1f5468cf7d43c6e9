// What other features use of alarms: the composed text of a stored alarm (health alarms), in both languages.
export { alarmRowText } from './health.js';

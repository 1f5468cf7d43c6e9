// What other features use of devices: the device reads and row update (by sn, display name, airport point),
// the offline status value, and a device authenticated from an HTTP request (uploads).
export { airportPoint, deviceName, findDeviceBySn, updateDeviceRow } from './store.js';
export { STATUS_OFFLINE } from './status.js';
export { authenticateDevice } from './auth.js';

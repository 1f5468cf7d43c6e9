export { deviceTypeHandlers } from './handlers.js';
export { seedDeviceTypes } from './store.js';

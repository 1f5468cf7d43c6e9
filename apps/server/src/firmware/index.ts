export { firmwareHandlers } from './handlers.js';
export { registerFirmwareRoutes } from './routes.js';
export { findLiveFirmware } from './store.js';

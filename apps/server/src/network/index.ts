export { networkHandlers } from './handlers.js';

export { departmentHandlers } from './handlers.js';

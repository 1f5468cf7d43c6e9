export { teachingHandlers } from './handlers.js';
export { registerTeachingRoutes } from './routes.js';

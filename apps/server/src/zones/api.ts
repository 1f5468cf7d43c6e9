// What other features use of zones: the public no-fly zones, and the zones resource routes, which the
// planning module (missions/index.ts) registers.
export { publicZones } from './zones.js';
export { registerZoneRoutes } from './routes.js';

// What other features use of terrain: ground heights from the tiles, and the terrain tile routes, which the
// planning module (missions/index.ts) registers.
export { groundFor, tileTerrain } from './tiles.js';
export { registerTerrainRoutes } from './routes.js';

/**
 * @nest/geo: pure geometry shared by browser, server and simulator. Store WGS84 everywhere; convert to
 * GCJ-02 only at the boundary of a Chinese basemap (AMap/Tencent), and back when the user clicks on it.
 * - coords: LatLng, WGS84 <-> GCJ-02, haversine distance, path length, heading arithmetic
 * - local / polygon: local metric frame, offsets and bearings in metres, rings, inside tests with a boundary tolerance
 * - validation: fence and route rules answering Issue[] (zh/en texts)
 * - zones: no-fly and restricted map zones a route must keep out of
 * - nofly: company no-fly zones (polygons, circles; per device, validity period), survey avoid rings
 * - camera / survey: camera presets, GSD, footprint, lawnmower grids that respect concave areas
 * - corridor: strip (corridor) scans along a centre line
 * - split: surveys longer than one battery split into parts flown one after another
 * - estimate: distance, area, flight-time estimate
 * - terrain: terrain providers, terrain-following heights, elevation-tile math
 */
export * from './coords.js';
export * from './local.js';
export * from './polygon.js';
export * from './issues.js';
export * from './validation.js';
export * from './zones.js';
export * from './nofly.js';
export * from './nofly-shape.js';
export * from './camera.js';
export * from './survey.js';
export * from './corridor.js';
export * from './split.js';
export * from './estimate.js';
export * from './terrain.js';

/**
 * @nest/formats: import and export of routes, fences and survey areas as pure functions (no DOM
 * globals), shared by browser and server. See ../README.md for formats, rules and limits.
 */
export * from './model.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { ImportLimits } from './limits.js';
export { importPlanFile, SUPPORTED_IMPORT_EXTS, DEFAULT_IMPORT_HEIGHT } from './import.js';
export type { ImportOptions, ImportResult, ImportFormat } from './import.js';
export { checkAgainstTask, ringProblem } from './check.js';
export type { TaskKind, TaskItem, TaskCheck, CheckOptions } from './check.js';
export { exportPlanFile, toKml, toGeoJson, toQgcPlan, toWpmlKmz, EXPORT_FORMATS, EXPORT_FILE_TYPES } from './export.js';
export type { ExportFormat, ExportResult, ExportOptions } from './export.js';
export type { GeoJsonFeature, GeoJsonFeatureCollection } from './geojson.js';
export type { QgcOptions } from './qgc.js';
export type { WpmlOptions } from './wpml.js';
export { circleToPolygon } from './geometry.js';
export { surveyRoute, SURVEY_ROUTE_DEFAULTS } from './survey-route.js';
export { NO_FLY_KINDS, isNoFlyKind, noFlyAddFields } from './nofly.js';
export { IMPORT_FILE_EXTS } from '@nest/contracts';
export { WKIMG_MAGIC, WKIMG_MAX_HEADER, buildWkimg, hasWkimgMagic, parseWkimg } from './wkimg.js';
export type { WkimgHeader, WkimgParse, WkimgProblem } from './wkimg.js';

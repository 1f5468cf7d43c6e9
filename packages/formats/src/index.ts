/**
 * @nest/formats: import and export of routes and fences as pure functions (no DOM globals), shared by
 * browser and server. Planned contents (see shared/REFERENCE.md sections 1-3):
 * - KML (OGC 2.2): fences as Polygon placemarks, routes as LineString/Point placemarks; lon,lat order;
 *   DOCTYPE/entities refused and size capped before parsing.
 * - GeoJSON: FeatureCollections of fences and routes (lon,lat order).
 * - QGroundControl `.plan` (JSON): mission items, geoFence polygons, rally points ([lat, lon, alt] order).
 * - DJI WPML `.kmz` route packages (template.kml + waylines.wpml), with entry count and unpacked size
 *   checked before unzipping.
 * Every reader answers the contracts' shapes (WGS84 {lat, lng}, waypoints with actions) or a localised
 * error; the accepted import extensions are the contracts' IMPORT_FILE_EXTS.
 */
export {};

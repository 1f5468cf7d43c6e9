import type { LatLng } from '@nest/contracts';
import { NO_FLY_RADIUS_MAX_M, NoFlyShape } from '@nest/contracts';
import type { PlanNoFly } from './model.js';

/**
 * How KML and GeoJSON mark a no-fly zone (QGC marks it itself: a geoFence item with inclusion false).
 * Written: `kind` = "nofly" (KML ExtendedData Data, GeoJSON properties), the zone's `reason`, and for a
 * circle a Point with `radius` (m); GeoJSON features also carry DJI's custom-flight-area fields
 * (`geofenceType` "nfz", properties `subType` "Circle" with `radius`), so a DJI dock's flight-area file
 * reads as no-fly zones too. Read: any of the kinds below (case-insensitive) in `kind` or `type`, DJI's
 * `geofenceType` "nfz", or, when a KML placemark says no kind, a name of the placemark or of a folder
 * around it that says no-fly (禁飞, no-fly, no fly, NFZ, exclusion).
 */
export const NO_FLY_KINDS: readonly string[] = ['nofly', 'no-fly', 'no_fly', 'nfz', 'exclusion', '禁飞区', '禁飞'];
export const NO_FLY_KIND = 'nofly';
const NO_FLY_NAME = /禁飞|no[-_ ]?fly|\bnfz\b|exclusion/i;

export const isNoFlyKind = (kind: unknown): boolean => typeof kind === 'string' && NO_FLY_KINDS.includes(kind.trim().toLowerCase());
export const isNoFlyName = (name: string | undefined): boolean => !!name && NO_FLY_NAME.test(name);

/** A polygon zone. */
export const noFlyPolygon = (name: string, boundary: LatLng[], reason?: string): PlanNoFly => ({
  name,
  shape: NoFlyShape.POLYGON,
  boundary,
  center: null,
  radius: null,
  ...(reason ? { reason } : {}),
});

/** A circle zone, or null when the radius is not one the contracts take (above 0, at most NO_FLY_RADIUS_MAX_M). */
export const noFlyCircle = (name: string, center: LatLng, radius: number | undefined, reason?: string): PlanNoFly | null =>
  radius !== undefined && Number.isFinite(radius) && radius > 0 && radius <= NO_FLY_RADIUS_MAX_M
    ? { name, shape: NoFlyShape.CIRCLE, boundary: [], center, radius, ...(reason ? { reason } : {}) }
    : null;

/**
 * The fields of a noFlyAdd request for a zone read from a file (boundary and centre as the JSON the call
 * takes; name cut to the call's 64 characters, reason to 500).
 */
export function noFlyAddFields(z: PlanNoFly): { name: string; reason?: string; shape: number; boundary?: string; center?: string; radius?: number } {
  return {
    name: z.name.slice(0, 64),
    ...(z.reason ? { reason: z.reason.slice(0, 500) } : {}),
    shape: z.shape,
    ...(z.center ? { center: JSON.stringify(z.center), radius: z.radius ?? 0 } : { boundary: JSON.stringify(z.boundary) }),
  };
}

import { EARTH_RADIUS_M, type LatLng, normDeg, toDeg, toRad } from './coords.js';

/** A point of a local metric plane: x metres east, y metres north of the frame's origin. */
export interface XY {
  x: number;
  y: number;
}

/**
 * A local equirectangular frame around an origin: x = (lng - lng0) * kx, y = (lat - lat0) * ky with
 * ky = R * pi/180 and kx = ky * cos(lat0). It is an affine map of (lng, lat), so straight lines in degrees
 * (what turf and the maps draw between two points) stay straight lines here and inside/outside answers
 * agree exactly with turf's planar tests. Scale error grows with the north-south extent: about 0.07 % at
 * 5 km from the origin at 40° latitude, enough for work areas of some km. The inverse is exact.
 */
export interface LocalFrame {
  readonly origin: LatLng;
  /** Metres per degree of longitude and of latitude at the origin. */
  readonly kx: number;
  readonly ky: number;
  toXY(p: LatLng): XY;
  toLatLng(p: XY): LatLng;
}

export function localFrame(origin: LatLng): LocalFrame {
  const ky = toRad(1) * EARTH_RADIUS_M;
  const kx = ky * Math.cos(toRad(origin.lat));
  return {
    origin,
    kx,
    ky,
    toXY: (p) => ({ x: (p.lng - origin.lng) * kx, y: (p.lat - origin.lat) * ky }),
    toLatLng: (p) => ({ lat: origin.lat + p.y / ky, lng: origin.lng + p.x / kx }),
  };
}

/** The point `north` and `east` metres from `p`, in the local frame around `p` (good within a few km). */
export function offsetMetres(p: LatLng, north: number, east: number): LatLng {
  return localFrame(p).toLatLng({ x: east, y: north });
}

/** Compass bearing from `a` to `b` in the local frame around `a`, degrees in [0, 360) (0 when they coincide). */
export function bearing(a: LatLng, b: LatLng): number {
  const d = localFrame(a).toXY(b);
  return normDeg(toDeg(Math.atan2(d.x, d.y)));
}

/** The mean of the points (a fine frame origin for a polygon), or (0, 0) for none. */
export function meanPoint(points: readonly LatLng[]): LatLng {
  if (points.length === 0) return { lat: 0, lng: 0 };
  let lat = 0;
  let lng = 0;
  for (const p of points) {
    lat += p.lat;
    lng += p.lng;
  }
  return { lat: lat / points.length, lng: lng / points.length };
}

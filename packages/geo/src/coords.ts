import gcoord, { type CRSTypes } from 'gcoord';

import type { LatLng } from '@nest/contracts';

/** A position in decimal degrees (WGS84 unless a function says otherwise): the contracts' LatLng. */
export type { LatLng };

/** Mean Earth radius used by haversine (IUGG, the same as turf). */
export const EARTH_RADIUS_M = 6_371_008.8;

const convert = (p: LatLng, from: CRSTypes, to: CRSTypes): LatLng => {
  const [lng, lat] = gcoord.transform<[number, number]>([p.lng, p.lat], from, to);
  return { lat, lng };
};

/** WGS84 (GPS, files, storage) to GCJ-02 (Chinese basemaps). Points outside China are unchanged. */
export const wgs84ToGcj02 = (p: LatLng): LatLng => convert(p, gcoord.WGS84, gcoord.GCJ02);

/**
 * GCJ-02 to WGS84. gcoord's iterative inverse stops near 1e-6 degrees (about 0.1 m); a few more
 * correction steps bring the round trip below a millimetre, so repeated edits on a GCJ-02 map do not
 * drift stored WGS84 points. Points outside China are unchanged.
 */
export function gcj02ToWgs84(p: LatLng): LatLng {
  let w = convert(p, gcoord.GCJ02, gcoord.WGS84);
  for (let i = 0; i < 4; i++) {
    const g = wgs84ToGcj02(w);
    const dLat = g.lat - p.lat;
    const dLng = g.lng - p.lng;
    if (Math.abs(dLat) < 1e-10 && Math.abs(dLng) < 1e-10) break;
    w = { lat: w.lat - dLat, lng: w.lng - dLng };
  }
  return w;
}

export const toRad = (deg: number): number => (deg * Math.PI) / 180;
export const toDeg = (rad: number): number => (rad * 180) / Math.PI;

/** An angle in degrees brought into [0, 360). */
export const normDeg = (deg: number): number => ((deg % 360) + 360) % 360;

/** Signed smallest difference `to - from` between two headings, degrees in (-180, 180]. */
export function angleDiff(from: number, to: number): number {
  const d = normDeg(to - from);
  return d > 180 ? d - 360 : d;
}

/** Great-circle distance in metres between two WGS84 points (haversine). */
export function haversineDistance(a: LatLng, b: LatLng): number {
  const dLat = toRad(b.lat - a.lat);
  const dLng = toRad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Length in metres of a path through the points in order (0 for fewer than two points). */
export function pathLength(points: readonly LatLng[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += haversineDistance(points[i - 1]!, points[i]!);
  return total;
}

/** Whether both coordinates are finite numbers within -90..90 (lat) and -180..180 (lng). */
export const isValidLatLng = (p: unknown): p is LatLng => {
  if (typeof p !== 'object' || p === null) return false;
  const { lat, lng } = p as Partial<LatLng>;
  return (
    typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng) &&
    Math.abs(lat) <= 90 && Math.abs(lng) <= 180
  );
};

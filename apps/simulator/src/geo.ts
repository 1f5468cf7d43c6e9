/** Flat-earth helpers, good enough within a few kilometres of a point. */
export interface LatLng {
  lat: number;
  lng: number;
}

const M_PER_DEG_LAT = 111_320;
const mPerDegLng = (lat: number): number => M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);

/** Point `north` / `east` metres away from `p`. */
export function offset(p: LatLng, north: number, east: number): LatLng {
  return { lat: p.lat + north / M_PER_DEG_LAT, lng: p.lng + east / mPerDegLng(p.lat) };
}

/** (north, east) metres from `a` to `b`. */
export function delta(a: LatLng, b: LatLng): { north: number; east: number } {
  return { north: (b.lat - a.lat) * M_PER_DEG_LAT, east: (b.lng - a.lng) * mPerDegLng(a.lat) };
}

export function distance(a: LatLng, b: LatLng): number {
  const d = delta(a, b);
  return Math.hypot(d.north, d.east);
}

/** Compass bearing from `a` to `b`, degrees in [0, 360). */
export function bearing(a: LatLng, b: LatLng): number {
  const d = delta(a, b);
  return normDeg((Math.atan2(d.east, d.north) * 180) / Math.PI);
}

export const normDeg = (deg: number): number => ((deg % 360) + 360) % 360;
/** Signed smallest difference `to - from` in degrees, in (-180, 180]. */
export function angleDiff(from: number, to: number): number {
  const d = normDeg(to - from);
  return d > 180 ? d - 360 : d;
}

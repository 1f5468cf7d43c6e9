import type { LatLng } from '@nest/contracts';

/** Small geometry needed to read and check files (the full toolbox lives in @nest/geo). */

const R = 6371008.8;
const rad = (d: number): number => (d * Math.PI) / 180;
const deg = (r: number): number => (r * 180) / Math.PI;

/** Two positions closer than ~1 cm count as the same point. */
export const EPS_DEG = 1e-7;
export const samePoint = (a: LatLng, b: LatLng, eps = EPS_DEG * 0.5): boolean =>
  Math.abs(a.lat - b.lat) <= eps && Math.abs(a.lng - b.lng) <= eps;

/** A ring as the model keeps it: open (closing point dropped) and without consecutive duplicates. */
export function openRing(points: LatLng[]): LatLng[] {
  const out: LatLng[] = [];
  for (const p of points) if (!out.length || !samePoint(out[out.length - 1]!, p)) out.push(p);
  while (out.length > 1 && samePoint(out[0]!, out[out.length - 1]!)) out.pop();
  return out;
}

export const closeRing = <T extends LatLng>(ring: T[]): T[] =>
  ring.length && !samePoint(ring[0]!, ring[ring.length - 1]!, 0) ? [...ring, ring[0]!] : ring;

/** Polygon approximating a circle: `n` points at `radius` metres around `center` (spherical Earth). */
export function circleToPolygon(center: LatLng, radius: number, n = 36): LatLng[] {
  const lat1 = rad(center.lat);
  const lng1 = rad(center.lng);
  const d = radius / R;
  const out: LatLng[] = [];
  for (let i = 0; i < n; i++) {
    const brg = (2 * Math.PI * i) / n;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(brg));
    const lng2 = lng1 + Math.atan2(Math.sin(brg) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
    out.push({ lat: deg(lat2), lng: ((deg(lng2) + 540) % 360) - 180 });
  }
  return out;
}

/** Project to a local plane in metres around the ring's first point (equirectangular; fine for fences). */
function project(ring: LatLng[]): { x: number; y: number }[] {
  const o = ring[0]!;
  const k = Math.cos(rad(o.lat));
  return ring.map((p) => {
    let dl = p.lng - o.lng;
    if (dl > 180) dl -= 360;
    if (dl < -180) dl += 360;
    return { x: rad(dl) * R * k, y: rad(p.lat - o.lat) * R };
  });
}

/** Area in square metres of an open ring (absolute value). */
export function ringArea(ring: LatLng[]): number {
  if (ring.length < 3) return 0;
  const p = project(ring);
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i]!;
    const b = p[(i + 1) % p.length]!;
    s += a.x * b.y - b.x * a.y;
  }
  return Math.abs(s) / 2;
}

/** Number of distinct positions of a ring. */
export const distinctCount = (ring: LatLng[]): number =>
  new Set(ring.map((p) => `${Math.round(p.lat / EPS_DEG)},${Math.round(p.lng / EPS_DEG)}`)).size;

const orient = (a: { x: number; y: number }, b: { x: number; y: number }, c: { x: number; y: number }): number =>
  (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);

/** True when two non-adjacent edges of the (open) ring cross or touch. O(n^2) with a bounding-box test. */
export function selfIntersects(ring: LatLng[]): boolean {
  const p = project(ring);
  const n = p.length;
  if (n < 4) return false;
  const seg = (i: number) => [p[i]!, p[(i + 1) % n]!] as const;
  for (let i = 0; i < n; i++) {
    const [a, b] = seg(i);
    const minX = Math.min(a.x, b.x);
    const maxX = Math.max(a.x, b.x);
    const minY = Math.min(a.y, b.y);
    const maxY = Math.max(a.y, b.y);
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // adjacent through the closing edge
      const [c, d] = seg(j);
      if (Math.max(c.x, d.x) < minX || Math.min(c.x, d.x) > maxX || Math.max(c.y, d.y) < minY || Math.min(c.y, d.y) > maxY) continue;
      const o1 = orient(a, b, c);
      const o2 = orient(a, b, d);
      const o3 = orient(c, d, a);
      const o4 = orient(c, d, b);
      if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    }
  }
  return false;
}

/** Yaw in 0..360 (from any angle, e.g. -180..180 headings). 360 stays 360. */
export const yaw360 = (a: number): number => (a >= 0 && a <= 360 ? a : ((a % 360) + 360) % 360);
/** Heading in -180..180 (DJI aircraftHeading) from a 0..360 yaw. */
export const heading180 = (a: number): number => {
  const y = yaw360(a) % 360;
  return y > 180 ? y - 360 : y;
};

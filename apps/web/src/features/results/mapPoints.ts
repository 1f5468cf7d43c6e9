import type { ResultItem } from '@nest/contracts';

/**
 * Results that share a position (several photos at one waypoint, a panorama beside them) would hide one
 * another: the n-th of a group is set on a small circle around the spot, `radiusM` metres per ring step.
 * Answers WGS84 positions in list order; results without a position (0,0) are left out (index kept).
 */
export function spreadPositions(items: readonly Pick<ResultItem, 'lat' | 'lng'>[], radiusM = 3): { index: number; lat: number; lng: number }[] {
  const groups = new Map<string, number>();
  const out: { index: number; lat: number; lng: number }[] = [];
  items.forEach((r, index) => {
    if (!Number.isFinite(r.lat) || !Number.isFinite(r.lng) || (r.lat === 0 && r.lng === 0)) return;
    const key = `${r.lat.toFixed(6)},${r.lng.toFixed(6)}`;
    const n = groups.get(key) ?? 0;
    groups.set(key, n + 1);
    if (n === 0) {
      out.push({ index, lat: r.lat, lng: r.lng });
      return;
    }
    // Rings of 6, 12, 18 ... places around the first one.
    let ring = 1;
    let k = n - 1;
    while (k >= ring * 6) {
      k -= ring * 6;
      ring += 1;
    }
    const angle = (2 * Math.PI * k) / (ring * 6);
    const d = ring * radiusM;
    const dLat = (d * Math.cos(angle)) / 111_320;
    const dLng = (d * Math.sin(angle)) / (111_320 * Math.cos((r.lat * Math.PI) / 180));
    out.push({ index, lat: r.lat + dLat, lng: r.lng + dLng });
  });
  return out;
}

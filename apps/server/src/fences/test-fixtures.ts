/** Test helpers of the planning tests (fences, missions): geometry around the simulated fleet. */
import type { LatLng } from '@nest/geo';

export const CENTER: LatLng = { lat: 22.5431, lng: 114.0579 };
const M_LAT = 111_320;
const mLng = (lat: number) => M_LAT * Math.cos((lat * Math.PI) / 180);

/** A point `east` / `north` metres from `origin`. */
export const offset = (east: number, north: number, origin: LatLng = CENTER): LatLng => ({
  lat: origin.lat + north / M_LAT,
  lng: origin.lng + east / mLng(origin.lat),
});

/** An axis-aligned rectangle (open ring) from south-west (x0, y0) to north-east (x1, y1), metres. */
export const rect = (x0: number, y0: number, x1: number, y1: number, origin: LatLng = CENTER): LatLng[] => [
  offset(x0, y0, origin),
  offset(x1, y0, origin),
  offset(x1, y1, origin),
  offset(x0, y1, origin),
];

/** A U-shaped (concave) ring: `w` wide, `h` high, arms `arm` wide, open to the north. */
export const uShape = (w: number, h: number, arm: number, origin: LatLng = CENTER): LatLng[] =>
  [
    [0, 0],
    [w, 0],
    [w, h],
    [w - arm, h],
    [w - arm, arm],
    [arm, arm],
    [arm, h],
    [0, h],
  ].map(([x, y]) => offset(x! - w / 2, y! - h / 2, origin));

export const json = (v: unknown): string => JSON.stringify(v);

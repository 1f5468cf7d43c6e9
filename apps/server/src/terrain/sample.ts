import type { LatLng } from '@nest/geo';

/**
 * The synthetic terrain of the bundled sample tile set (see make-sample.ts): a few Gaussian hills
 * (0 to about 400 m above sea level) around the simulated fleet (22.5431, 114.0579). Plausible for a
 * demo, not real ground: a deployment puts real Terrain-RGB tiles under DATA_DIR/terrain.
 */
export const SAMPLE_ZOOM = 12;
export const SAMPLE_CENTER: LatLng = { lat: 22.5431, lng: 114.0579 };

export interface Hill {
  lat: number;
  lng: number;
  /** Height of the top above the base (m). */
  height: number;
  /** Standard deviation of the Gaussian (m). */
  sigma: number;
}

/** Base level of the sample area (m above sea level). */
export const SAMPLE_BASE_M = 5;

export const SAMPLE_HILLS: readonly Hill[] = [
  { lat: 22.56, lng: 114.09, height: 380, sigma: 1500 },
  { lat: 22.52, lng: 114.03, height: 220, sigma: 1200 },
  { lat: 22.575, lng: 114.02, height: 150, sigma: 900 },
  { lat: 22.51, lng: 114.1, height: 90, sigma: 700 },
];

const M_PER_DEG_LAT = 111_320;

/** Ground elevation of the synthetic sample terrain at a point (m above sea level). */
export function sampleHeight(lat: number, lng: number): number {
  let h = SAMPLE_BASE_M;
  for (const hill of SAMPLE_HILLS) {
    const dy = (lat - hill.lat) * M_PER_DEG_LAT;
    const dx = (lng - hill.lng) * M_PER_DEG_LAT * Math.cos((hill.lat * Math.PI) / 180);
    h += hill.height * Math.exp(-(dx * dx + dy * dy) / (2 * hill.sigma * hill.sigma));
  }
  return h;
}

import type { GnssFix, NavEnv } from '@nest/contracts';

/** A typical accuracy: centimetres under a metre ("2 cm", "50 cm"), else metres with one decimal ("2.5 m"). */
export function formatAccuracy(m: number | null): string | null {
  if (m === null) return null;
  if (m < 1) return `${Math.round(m * 100)} cm`;
  return `${Math.round(m * 10) / 10} m`;
}

/** "22.541000, 114.051000": six decimals (about 0.1 m). */
export const formatLatLng = (p: { lat: number; lng: number }): string => `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}`;

/** Tag colour of a fix type: fixed green, float and differential blue, standalone orange, none red. */
export const FIX_COLORS: Readonly<Record<GnssFix, string>> = { fixed: 'green', float: 'blue', dgnss: 'cyan', single: 'orange', none: 'red' };

export interface NavSummary {
  devices: number;
  fixed: number;
  /** A position without RTK correction (standalone or none). */
  weak: number;
  noData: number;
}

export function summarise(list: readonly NavEnv[]): NavSummary {
  const s: NavSummary = { devices: list.length, fixed: 0, weak: 0, noData: 0 };
  for (const d of list) {
    if (!d.gnss) s.noData++;
    else if (d.gnss.fix === 'fixed') s.fixed++;
    else if (d.gnss.fix === 'single' || d.gnss.fix === 'none') s.weak++;
  }
  return s;
}

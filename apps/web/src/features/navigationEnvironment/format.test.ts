import { describe, expect, it } from 'vitest';
import { GNSS_TYPICAL_ACCURACY_M, gnssFixOf, type NavEnv } from '@nest/contracts';
import { formatAccuracy, formatLatLng, summarise } from './format';

const env = (fix: NavEnv['gnss'] extends infer G ? (G extends { fix: infer F } ? F : never) : never | null): NavEnv => ({
  sn_id: `SN-${String(fix)}`,
  name: 'x',
  type: 'stable',
  online: true,
  at: 1,
  gnss: fix
    ? { lat: 1, lng: 2, alt: 3, satellites: 20, rtk_status: 4, rtk_satellites: 18, ntrip_state: 7, fix, accuracy_m: GNSS_TYPICAL_ACCURACY_M[fix], flight_state: 4, home_distance: 0 }
    : null,
  home: null,
  alternate: null,
});

describe('navigation environment format', () => {
  it('formats typical accuracies in cm under a metre, else m', () => {
    expect(formatAccuracy(null)).toBeNull();
    expect(formatAccuracy(0.02)).toBe('2 cm');
    expect(formatAccuracy(0.5)).toBe('50 cm');
    expect(formatAccuracy(2.5)).toBe('2.5 m');
  });

  it('formats positions with six decimals', () => {
    expect(formatLatLng({ lat: 22.5, lng: 114.0571234 })).toBe('22.500000, 114.057123');
  });

  it('derives the fix from the RTK status and satellites', () => {
    expect(gnssFixOf(4, 3)).toBe('fixed');
    expect(gnssFixOf(3, 10)).toBe('float');
    expect(gnssFixOf(2, 10)).toBe('dgnss');
    expect(gnssFixOf(1, 12)).toBe('single');
    expect(gnssFixOf(0, 3)).toBe('none');
  });

  it('summarises fixed, weak and missing fixes', () => {
    const list = [env('fixed'), env('fixed'), env('float'), env('single'), env('none'), env(null as never)];
    expect(summarise(list)).toEqual({ devices: 6, fixed: 2, weak: 2, noData: 1 });
  });
});

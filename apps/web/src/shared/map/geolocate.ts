import { GEOLOCATION_TIMEOUT_MS } from '@nest/contracts';
import type { LatLng } from './basemaps';
import { searchCity } from './cities';

export type LocateSource = 'geolocation' | 'city';
export interface Located extends LatLng {
  source: LocateSource;
  /** The city's name when found by city search. */
  city?: string;
}

/** Both the browser position and the city search failed (SPEC 8: the result is rejected). */
export class LocateError extends Error {
  constructor(readonly reasons: { geolocation: string; city: string }) {
    super(`location unavailable (geolocation: ${reasons.geolocation}; city: ${reasons.city})`);
    this.name = 'LocateError';
  }
}

export interface LocateOptions {
  geolocation?: Pick<Geolocation, 'getCurrentPosition'> | null;
  timeoutMs?: number;
  /** The city search of the fallback: answers a WGS84 city centre, or rejects / answers null. */
  citySearch?: () => Promise<(LatLng & { name?: string }) | null>;
}

/** The browser's position within `timeoutMs` (a timer of ours too: some browsers never call back). */
export function browserPosition(geo: Pick<Geolocation, 'getCurrentPosition'> | null | undefined, timeoutMs: number): Promise<LatLng> {
  return new Promise((resolve, reject) => {
    if (!geo) {
      reject(new Error('geolocation not supported'));
      return;
    }
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      reject(new Error('timeout'));
    }, timeoutMs);
    try {
      geo.getCurrentPosition(
        (pos) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve({ lat: pos.coords.latitude, lng: pos.coords.longitude });
        },
        (err) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          reject(new Error(err.message || `geolocation error ${err.code}`));
        },
        { timeout: timeoutMs, maximumAge: 60_000, enableHighAccuracy: false },
      );
    } catch (err) {
      done = true;
      clearTimeout(timer);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** City search of the built-in table for a configured city name (offline; no IP lookup service). */
export const cityNamed = (name: string) => async (): Promise<(LatLng & { name: string }) | null> => {
  const city = searchCity(name);
  return city ? { lat: city.lat, lng: city.lng, name: city.en } : null;
};

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Where the operator is (SPEC 8 / 9): the browser position with a GEOLOCATION_TIMEOUT_MS timeout, then
 * the city search; rejects with LocateError when both fail.
 */
export async function locate(opts: LocateOptions = {}): Promise<Located> {
  const geo = opts.geolocation === undefined ? globalThis.navigator?.geolocation : opts.geolocation;
  let geoReason: string;
  try {
    const p = await browserPosition(geo, opts.timeoutMs ?? GEOLOCATION_TIMEOUT_MS);
    return { ...p, source: 'geolocation' };
  } catch (err) {
    geoReason = reason(err);
  }
  const search = opts.citySearch ?? cityNamed('Shenzhen');
  try {
    const city = await search();
    if (city) return { lat: city.lat, lng: city.lng, source: 'city', ...(city.name ? { city: city.name } : {}) };
    throw new Error('no city found');
  } catch (err) {
    throw new LocateError({ geolocation: geoReason, city: reason(err) });
  }
}

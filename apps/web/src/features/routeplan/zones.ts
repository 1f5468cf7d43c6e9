import { useEffect, useState } from 'react';
import { zonePolygonSchema, type ZonePolygon } from '@nest/contracts';

export const ZONES_URL = '/api/static/zones.json';

/** Zone polygons (no-fly zones) from the static resource; none when it does not exist (404) or is malformed. */
export async function loadZones(fetcher: typeof fetch = fetch): Promise<ZonePolygon[]> {
  try {
    const res = await fetcher(ZONES_URL, { credentials: 'same-origin' });
    if (!res.ok) return [];
    const body = (await res.json()) as unknown;
    const list = Array.isArray(body) ? body : ((body as { list?: unknown[]; data?: unknown[] })?.list ?? (body as { data?: unknown[] })?.data ?? []);
    return list.flatMap((z) => {
      const r = zonePolygonSchema.safeParse(z);
      return r.success ? [r.data] : [];
    });
  } catch {
    return [];
  }
}

export function useZones(): ZonePolygon[] {
  const [zones, setZones] = useState<ZonePolygon[]>([]);
  useEffect(() => {
    let live = true;
    void loadZones().then((z) => live && setZones(z));
    return () => {
      live = false;
    };
  }, []);
  return zones;
}

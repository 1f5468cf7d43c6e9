import { useEffect, useState } from 'react';
import { zoneSchema, type Zone } from '@nest/contracts';

export const ZONES_URL = '/api/static/zones.json';

/**
 * The map zones (no-fly, restricted and work zones) from the static resource, each with its name in both
 * languages; none when it does not exist (404) or is malformed. A zone whose name is one plain string is
 * read with that name in both languages; malformed zones are left out.
 */
export async function loadZones(fetcher: typeof fetch = fetch): Promise<Zone[]> {
  try {
    const res = await fetcher(ZONES_URL, { credentials: 'same-origin' });
    if (!res.ok) return [];
    const body = (await res.json()) as unknown;
    const list = Array.isArray(body) ? body : ((body as { list?: unknown[]; data?: unknown[] })?.list ?? (body as { data?: unknown[] })?.data ?? []);
    return list.flatMap((z: unknown) => {
      const raw = z as { name?: unknown } | null;
      const named = raw && typeof raw.name === 'string' ? { ...raw, name: { zh: raw.name, en: raw.name } } : raw;
      const r = zoneSchema.safeParse(named);
      return r.success ? [r.data] : [];
    });
  } catch {
    return [];
  }
}

/** The map zones, loaded once per screen. */
export function useZones(): Zone[] {
  const [zones, setZones] = useState<Zone[]>([]);
  useEffect(() => {
    let live = true;
    void loadZones().then((z) => live && setZones(z));
    return () => {
      live = false;
    };
  }, []);
  return zones;
}

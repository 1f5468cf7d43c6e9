import { useEffect, useState } from 'react';
import type { Mission } from '@nest/contracts';
import { call } from '../../../shared/request';

/** The saved routes of a device: the routes of every fence bound to it. */
export function useDeviceRoutes(sn: string, enabled: boolean): { routes: Mission[]; loading: boolean } {
  const [routes, setRoutes] = useState<Mission[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setLoading(true);
    (async () => {
      const fences = await call('fenceList', { sn_id: sn, page: 0, size: 1000 }, { quiet: true });
      const own = fences.list.filter((f) => f.sn_id === sn);
      const pages = await Promise.all(
        own.map((f) => call('missionList', { fence_id: f.id, page: 0, size: 1000 }, { quiet: true })),
      );
      if (live) setRoutes(pages.flatMap((p) => p.list));
    })()
      .catch(() => live && setRoutes([]))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [sn, enabled]);
  return { routes, loading };
}

/** Breakpoint of a route (the waypoint an interrupted run resumes from), 0 when none. */
export function routeBreakpoint(m: Mission | undefined): number {
  const v = m?.breakpoint;
  return typeof v === 'number' && v > 0 ? v : 0;
}

import { useEffect, useState } from 'react';
import type { Fence, Mission, Page } from '@nest/contracts';
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
      const fences = await call<'fenceList', Page<Fence>>('fenceList', { sn_id: sn, page: 0, size: 1000 }, { quiet: true });
      const own = fences.list.filter((f) => f.sn_id === sn);
      const pages = await Promise.all(
        own.map((f) => call<'missionList', Page<Mission>>('missionList', { fence_id: f.id, page: 0, size: 1000 }, { quiet: true })),
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

/** Breakpoint of a route, when the server reports one (not in the frozen Mission contract: read loosely). */
export function routeBreakpoint(m: Mission | undefined): number {
  const r = m as unknown as Record<string, unknown> | undefined;
  const v = r?.break_index ?? r?.breakpoint ?? r?.break_point;
  return typeof v === 'number' && v > 0 ? v : 0;
}

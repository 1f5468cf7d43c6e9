import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { Mission } from '@nest/contracts';
import { callKey, queryClient, useCall } from '../../../shared/query';
import { call } from '../../../shared/request';

/** The same empty list while nothing is read, so that `routes` keeps its identity across renders. */
const NO_ROUTES: Mission[] = [];

/**
 * The saved routes of a device: the routes of every fence bound to it, read through the query cache (the
 * device's fences, then each fence's routes) while `enabled`. Reads are quiet; a failed one gives no routes.
 */
export function useDeviceRoutes(sn: string, enabled: boolean): { routes: Mission[]; loading: boolean } {
  const fences = useCall('fenceList', enabled ? { sn_id: sn, page: 0, size: 1000 } : null, { quiet: true });
  const own = useMemo(() => (fences.data?.list ?? []).filter((f) => f.sn_id === sn), [fences.data, sn]);
  const pages = useQueries(
    {
      // Under the missionList key (like useCall): a change that invalidates the route lists reads these again.
      queries: own.map((f) => {
        const fields = { fence_id: f.id, page: 0, size: 1000 };
        return { queryKey: callKey('missionList', fields), queryFn: () => call('missionList', fields, { quiet: true }) };
      }),
      combine: (results) => ({
        failed: results.some((r) => r.isError),
        loading: results.some((r) => r.isFetching),
        lists: results.map((r) => r.data?.list),
      }),
    },
    queryClient,
  );
  const routes = useMemo(
    () => (fences.isError || pages.failed ? NO_ROUTES : pages.lists.flatMap((list) => list ?? [])),
    [fences.isError, pages.failed, pages.lists],
  );
  return { routes, loading: fences.isFetching || pages.loading };
}

/** Breakpoint of a route (the waypoint an interrupted run resumes from), 0 when none. */
export function routeBreakpoint(m: Mission | undefined): number {
  const v = m?.breakpoint;
  return typeof v === 'number' && v > 0 ? v : 0;
}

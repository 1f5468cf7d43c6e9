import { useMemo } from 'react';
import type { NoFlyZone } from '@nest/contracts';
import { useCall } from '../query';

/**
 * The company's no-fly zones as every map draws them (the zones the operator's company declared, beside the
 * public map zones of zones.ts). Read quietly: a console whose user may not list them draws none.
 */

/**
 * The company's no-fly zones: crimson, unlike the public kinds; paler (and dashed) while they do not
 * restrict. Here, not with the overlay, so the planning screens draw a zone being edited in the same
 * colour without loading the map's code.
 */
export const NO_FLY_COLORS = { stroke: '#c2185b', fill: 'rgba(194,24,91,0.28)', inactiveFill: 'rgba(194,24,91,0.08)' } as const;

/** Where a zone stands in its validity period: restricting now, not yet valid, or past its end. */
export type NoFlyStatus = 'active' | 'upcoming' | 'expired';

/**
 * The zone's status at `nowS` (unix seconds). `active` is the server's word for "restricts now"; a zone that
 * does not restrict is expired when its period ended before now, else not yet valid.
 */
export function noFlyStatus(zone: Pick<NoFlyZone, 'active' | 'valid_to'>, nowS: number): NoFlyStatus {
  if (zone.active) return 'active';
  return zone.valid_to !== null && zone.valid_to < nowS ? 'expired' : 'upcoming';
}

/** How many zones one read asks for: the list's largest page (contracts noFlyList). */
export const NO_FLY_PAGE = 1000;

const NONE: NoFlyZone[] = [];

/** Every no-fly zone of the company, read once per screen and again after a change (invalidateCall('noFlyList')). */
export function useNoFlyZones(): NoFlyZone[] {
  const list = useCall('noFlyList', { page: 0, size: NO_FLY_PAGE }, { quiet: true });
  return useMemo(() => list.data?.list ?? NONE, [list.data]);
}

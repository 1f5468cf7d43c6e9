import { SUPER_ADMINISTRATOR } from '@nest/contracts';
import type { DeviceRow } from './schema.js';

/**
 * Who sees which devices: one company, or every company (super administrator), plus `shared`: devices of
 * other companies shared with the user through collaboration groups (groups/shares.ts), seen but not
 * controlled.
 */
export interface Scope {
  companyId: string;
  all: boolean;
  shared?: ReadonlySet<string>;
}
/** Control scope: the user's company (super administrator: all). Commands, connect, settings use this. */
export const inScope = (scope: Scope, row: Pick<DeviceRow, 'company_id'>): boolean => scope.all || row.company_id === scope.companyId;
/** View scope: the control scope plus the devices shared with the user (list, map, live data). */
export const sees = (scope: Scope, row: Pick<DeviceRow, 'company_id' | 'sn_id'>): boolean =>
  inScope(scope, row) || (scope.shared?.has(row.sn_id) ?? false);

/** A super administrator's scope is every company. */
export const isSuper = (funList: readonly string[]): boolean => funList.includes(SUPER_ADMINISTRATOR);

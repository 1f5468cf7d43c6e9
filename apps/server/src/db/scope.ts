import { SUPER_ADMINISTRATOR } from '@nest/contracts';
import type { Caller } from '../calls/types.js';
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

/** The caller's control scope (own company; super_administrator: all). */
export const scopeOf = (caller: Caller): Scope => ({ companyId: caller.user.company_id, all: isSuper(caller.funList) });

/** Whose plans, records and results a caller sees: their company's, or every company's for super_administrator. */
export interface PlanScope {
  companyId: string;
  all: boolean;
}
export const planScopeOf = (caller: Caller): PlanScope => ({ companyId: caller.user.company_id, all: isSuper(caller.funList) });
export const inPlanScope = (scope: PlanScope, row: { company_id: string }): boolean => scope.all || row.company_id === scope.companyId;

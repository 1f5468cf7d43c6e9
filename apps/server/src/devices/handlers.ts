import { DEVICE_HOLD_SECONDS, DeviceTypeKey, RecordState, ResultCode, demoSearchTerms } from '@nest/contracts';
import { CallError, textMessage } from '../calls/errors.js';
import type { Caller, Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { DeviceRow } from '../db/schema.js';
import { DeviceListIndex } from './list.js';
import { callerOf } from '../calls/caller.js';
import { scopeOf } from '../db/scope.js';
import { sharesOf } from '../groups/api.js';
import { inScope, type Scope } from './directory.js';
import { categoriesOfTypeFilter, findDeviceBySn } from './store.js';
import { mediaLinks } from '../videos/api.js';

/** The caller's view scope: the control scope plus devices shared through collaboration groups (read live). */
export const viewScopeOf = async (db: AppDeps['db'], caller: Caller): Promise<Scope> => {
  const scope = scopeOf(caller);
  return scope.all ? scope : { ...scope, shared: await sharesOf(db).of(caller.user.u_id) };
};

/**
 * Device calls:
 * - /device/list: registered devices of the caller's company (super_administrator: every company) with
 *   their live state, plus the devices shared with the caller through collaboration groups (`shared`
 *   true: seen, not controlled). `type` 0 = all, else a DeviceKind code: 10 fixed nests (stable and stable_mini), 100
 *   mobile nests, 200 single-soldier drones; `search` matches sn, drone sn, airport and drone names and
 *   address (case-insensitive); `page` from 0, `size` (default 200). Sorted online first (1 and 3 before 2),
 *   then by name. Answers `{list: DeviceListItem[], total}`. Read from the device directory and the live
 *   state in memory, not from the database (list.ts).
 * - /device/uav/type: the device type keys with their labels in the caller's language: `[{value, label}]`.
 * - /device/connect: take, renew or release the control connection (see DeviceStatusBoard); own company
 *   only (a shared device does not exist for it). Answers
 *   `{sn_id, state, connected_by, expires_at (s, null once released), hold_seconds}`.
 */
export function deviceHandlers(deps: AppDeps): Handlers {
  const { db, config } = deps;
  const { link, status, directory } = deps.live;
  const list = new DeviceListIndex(directory, link, status);

  async function visibleDevice(caller: Caller, sn: string): Promise<DeviceRow> {
    const row = directory.get(sn) ?? (await findDeviceBySn(db, sn));
    if (!row || Number(row.state) !== RecordState.NORMAL || !inScope(scopeOf(caller), row)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  return {
    deviceList: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const { type, search, page, size } = ctx.fields;
      const categories = categoriesOfTypeFilter(type);
      if (!categories) throw new CallError(ResultCode.BAD_REQUEST, textMessage('devices.list.type'));
      const scope = await viewScopeOf(db, caller);
      const terms = search ? demoSearchTerms(search).map((t) => t.toLowerCase()) : null;
      const answer = list.page({ scope, categories, terms, lang: ctx.lang }, page, size, await mediaLinks(db), config.liveUrlBase);
      // The index serialises the page and shows catalogue texts in the caller's language itself (once per device, not per answer).
      return { data: answer, shown: true };
    },

    userGetDeviceType: async (ctx) => ({ data: DeviceTypeKey.options(ctx.lang) }),

    deviceConnect: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const { sn_id: sn, connect, action } = ctx.fields;
      const act = action ?? (connect === 1 ? 'connect' : 'release');
      const row = await visibleDevice(caller, sn);
      const answer = () => ({
        ...status.snapshot(sn),
        expires_at: status.holder(sn)?.u_id === caller.user.u_id ? status.expiresAt(sn) : null,
        hold_seconds: config.deviceHoldSeconds ?? DEVICE_HOLD_SECONDS,
      });
      if (act === 'release') {
        if (!(await status.release(sn, caller.user.u_id))) {
          const h = status.holder(sn);
          throw new CallError(ResultCode.DEVICE_BUSY, textMessage('devices.connect.busy', { nick: h?.nick ?? '' }));
        }
        return { data: answer() };
      }
      if (Number(row.enabled) !== 1) throw new CallError(ResultCode.DEVICE_DISABLED);
      if (!link.isOnline(sn)) throw new CallError(ResultCode.DEVICE_OFFLINE);
      const result = await status.connect(sn, { u_id: caller.user.u_id, nick: caller.user.nick });
      if (!result.ok) {
        throw new CallError(ResultCode.DEVICE_BUSY, textMessage('devices.connect.busy', { nick: result.holder?.nick ?? '' }));
      }
      return { data: answer() };
    },
  };
}

import { DEVICE_HOLD_SECONDS, DeviceTypeKey, RecordState, ResultCode, type DeviceListItem } from '@nest/contracts';
import { CallError, textMessage } from '../calls/errors.js';
import type { Caller, Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { DeviceRow } from '../db/schema.js';
import { callerOf } from '../calls/caller.js';
import { scopeOf } from '../db/scope.js';
import { sharesOf } from '../groups/api.js';
import { inScope, sees, type Scope } from './directory.js';
import { STATUS_OFFLINE } from './status.js';
import { categoriesOfTypeFilter, deviceName, findDeviceBySn, presentDevice, queryDevices } from './store.js';
import { positionOf } from './view.js';
import { mediaLinks, type MediaLinks } from '../videos/api.js';

/** The caller's view scope: the control scope plus devices shared through collaboration groups (read live). */
export const viewScopeOf = async (db: AppDeps['db'], caller: Caller): Promise<Scope> => {
  const scope = scopeOf(caller);
  return scope.all ? scope : { ...scope, shared: await sharesOf(db).of(caller.user.u_id) };
};

/**
 * The drone video URL of a device: <LIVE_URL_BASE>/<sn>/index.m3u8, as a signed, expiring path of the
 * device's directory when this server serves it (videos/links.ts); only for devices the caller sees.
 */
export const liveVideoUrl = (links: MediaLinks, base: string, sn: string): string => links.live(base, sn);

/**
 * Device calls:
 * - /device/list: registered devices of the caller's company (super_administrator: every company) with
 *   their live state, plus the devices shared with the caller through collaboration groups (`shared`
 *   true: seen, not controlled). `type` 0 = all, else a DeviceKind code: 10 fixed nests (stable and stable_mini), 100
 *   mobile nests, 200 single-soldier drones; `search` matches sn, drone sn, airport and drone names and
 *   address (case-insensitive); `page` from 0, `size` (default 200). Sorted online first (1 and 3 before 2),
 *   then by name. Answers `{list: DeviceListItem[], total}`.
 * - /device/uav/type: the device type keys with their labels in the caller's language: `[{value, label}]`.
 * - /device/connect: take, renew or release the control connection (see DeviceStatusBoard); own company
 *   only (a shared device does not exist for it). Answers
 *   `{sn_id, state, connected_by, expires_at (s, null once released), hold_seconds}`.
 */
export function deviceHandlers(deps: AppDeps): Handlers {
  const { db, config } = deps;
  const { link, status, directory } = deps.live;

  function listItem(row: DeviceRow, links: MediaLinks): DeviceListItem {
    const online = link.isOnline(row.sn_id);
    const snapshot = status.snapshot(row.sn_id);
    return {
      ...presentDevice(row, snapshot.state as 1 | 2 | 3),
      name: deviceName(row),
      is_push_on: online,
      connected_by: snapshot.connected_by,
      position: positionOf(row, link.device(row.sn_id)?.telemetry),
      // The console asks for video when it opens the device (push 200); the player retries until it plays.
      stream_uav_list: online ? [liveVideoUrl(links, config.liveUrlBase, row.sn_id)] : [],
    };
  }

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
      const shared = scope.shared?.size ? scope.shared : null;
      // With shares, other companies' rows are read too and filtered to the shared ones (few devices).
      const rows = (await queryDevices(db, { companyId: scope.all || shared ? null : scope.companyId, categories, search: search || undefined })).filter(
        (r) => sees(scope, r),
      );
      const locale = ctx.lang === 'zh' ? 'zh-CN' : 'en';
      const links = await mediaLinks(db);
      const items = rows.map((r) => (inScope(scope, r) ? listItem(r, links) : { ...listItem(r, links), shared: true }));
      const rank = (s: number) => (s === STATUS_OFFLINE ? 1 : 0);
      items.sort((a, b) => rank(a.state) - rank(b.state) || a.name.localeCompare(b.name, locale) || a.sn_id.localeCompare(b.sn_id));
      return { data: { list: items.slice(page * size, page * size + size), total: items.length } };
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

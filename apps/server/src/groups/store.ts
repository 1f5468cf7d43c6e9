import { RecordState, type CollaborationGroup, type GroupDevice } from '@nest/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { ComGroupsTable, DB, DeviceRow } from '../db/schema.js';
import { STATUS_OFFLINE, deviceName } from '../devices/api.js';

/** com_groups.state (contracts RecordState). */
export const GROUP_NORMAL: number = RecordState.NORMAL;
export const GROUP_DELETED: number = RecordState.DELETED;

export type GroupRow = Selectable<ComGroupsTable>;

/** Live online status of a device (OnlineStatus 1, 2, 3). */
export type StatusOf = (sn: string) => number;

/** One group as the calls present it (presentGroups for a single row). */
export async function presentGroup(db: Kysely<DB>, row: GroupRow, statusOf: StatusOf, withDevices = false): Promise<CollaborationGroup> {
  const [group] = await presentGroups(db, [row], statusOf, withDevices);
  if (!group) throw new Error(`group ${row.id} was not presented`);
  return group;
}

/**
 * The rows of groups as /com/getList and /com/getOne answer them: device and member ids with the members
 * named, online_count counted from the live status board at the time of the call, the creator's nick.
 * One query per table for the whole page.
 */
export async function presentGroups(
  db: Kysely<DB>,
  rows: readonly GroupRow[],
  statusOf: StatusOf,
  withDevices = false,
): Promise<CollaborationGroup[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const devices = await db.selectFrom('com_group_devices').selectAll().where('group_id', 'in', ids).orderBy('sn_id').execute();
  const members = await db
    .selectFrom('com_group_users as m')
    .leftJoin('users as u', 'u.u_id', 'm.u_id')
    .select(['m.group_id', 'm.u_id', 'u.nick', 'u.company_id'])
    .where('m.group_id', 'in', ids)
    .orderBy('u.nick')
    .orderBy('m.u_id')
    .execute();
  const creatorIds = [...new Set(rows.map((r) => r.u_id).filter(Boolean))];
  const creators = creatorIds.length ? await db.selectFrom('users').select(['u_id', 'nick']).where('u_id', 'in', creatorIds).execute() : [];
  const nickOf = new Map(creators.map((c) => [c.u_id, c.nick]));
  let deviceRows = new Map<string, DeviceRow>();
  if (withDevices) {
    const sns = [...new Set(devices.map((d) => d.sn_id))];
    if (sns.length) deviceRows = new Map((await db.selectFrom('devices').selectAll().where('sn_id', 'in', sns).execute()).map((d) => [d.sn_id, d]));
  }
  return rows.map((r) => {
    const sns = devices.filter((d) => d.group_id === r.id).map((d) => d.sn_id);
    const users = members.filter((m) => m.group_id === r.id);
    const group: CollaborationGroup = {
      id: r.id,
      name: r.name,
      notes: r.notes,
      company: r.company_id,
      creator: nickOf.get(r.u_id) ?? '',
      create_time: Number(r.create_time),
      device_count: sns.length,
      online_count: sns.filter((sn) => statusOf(sn) !== STATUS_OFFLINE).length,
      state: Number(r.state) as 10 | 20,
      device_ids: sns,
      user_ids: users.map((u) => u.u_id),
      users: users.map((u) => ({ u_id: u.u_id, nick: u.nick ?? '', company: u.company_id ?? '' })),
    };
    if (withDevices) {
      group.devices = sns.map((sn): GroupDevice => {
        const d = deviceRows.get(sn);
        return { sn_id: sn, name: d ? deviceName(d) : sn, type: (d?.type ?? 'stable') as GroupDevice['type'], state: statusOf(sn) as 1 | 2 | 3 };
      });
    }
    return group;
  });
}

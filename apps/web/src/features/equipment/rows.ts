import type { DeviceListItem } from '@nest/contracts';
import type { FleetDevice } from '../../shared/fleet';

/** Online status (1 online, 2 offline, 3 held) and holder of a row, as live as known. */
export interface LiveState {
  state: 1 | 2 | 3;
  connectedBy: DeviceListItem['connected_by'];
}

const asStatus = (s: number): 1 | 2 | 3 => (s === 1 || s === 3 ? s : 2);

/** The fleet (pushed statuses, refreshed list) is newer than the page of the table when it knows the device. */
export function liveOf(item: DeviceListItem, fleet: Pick<FleetDevice, 'state' | 'connectedBy'> | undefined): LiveState {
  return fleet ? { state: asStatus(fleet.state), connectedBy: fleet.connectedBy } : { state: asStatus(item.state), connectedBy: item.connected_by };
}

/** Why an action on a device cannot be taken now (the server refuses the same cases). */
export type Block = { kind: 'held'; nick: string } | { kind: 'disabled' } | { kind: 'shared' };

/**
 * - a device shared through a collaboration group belongs to another company: nothing here;
 * - someone else holds its control connection: no edit, delete, disable or maintenance;
 * - disabled: only enabling again.
 */
export function blockOf(item: DeviceListItem, live: LiveState, myId: string | undefined, what: 'edit' | 'delete' | 'enable' | 'maintain'): Block | null {
  if (item.shared) return { kind: 'shared' };
  if (live.state === 3 && live.connectedBy && live.connectedBy.u_id !== myId) return { kind: 'held', nick: live.connectedBy.nick };
  if (!item.enabled && what !== 'enable') return { kind: 'disabled' };
  return null;
}

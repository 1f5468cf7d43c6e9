import { RecordState, type CallFields, type CollaborationGroup } from '@nest/contracts';

/** A group's state: normal, or deleted (looked up, never changed). */
export type GroupState = typeof RecordState.NORMAL | typeof RecordState.DELETED;

/**
 * Pure rules of the collaboration-group screen: live online counts from the fleet's statuses, the dialog's
 * validation (the contracts rules: a name of at most 64 characters, at least one device) and its call fields.
 */

export const NAME_MAX = 64;
export const NOTES_MAX = 500;

/** Online devices of a group: the live status when the fleet knows the device, else the server's count. */
export function onlineCount(group: Pick<CollaborationGroup, 'device_ids' | 'online_count'>, liveState: (sn: string) => number | undefined): number {
  const states = group.device_ids.map(liveState);
  if (states.some((s) => s === undefined)) return group.online_count;
  return states.filter((s) => s !== 2).length;
}

export interface GroupForm {
  name: string;
  device_ids: string[];
  user_ids: string[];
  notes: string;
}

export type GroupIssue = 'name' | 'nameLong' | 'devices' | 'notesLong';

export function groupIssues(form: GroupForm): GroupIssue[] {
  const issues: GroupIssue[] = [];
  const name = form.name.trim();
  if (!name) issues.push('name');
  else if (name.length > NAME_MAX) issues.push('nameLong');
  if (form.device_ids.length === 0) issues.push('devices');
  if (form.notes.trim().length > NOTES_MAX) issues.push('notesLong');
  return issues;
}

/** Fields of /com/add. Lists travel as JSON arrays; without `members` (the caller cannot list users) none. */
export function groupAddFields(form: GroupForm, members: boolean): CallFields<'comAdd'> {
  return { name: form.name.trim(), device_ids: JSON.stringify(form.device_ids), user_ids: JSON.stringify(members ? form.user_ids : []), notes: form.notes.trim() };
}

/** Fields of /com/edit (state 20 deletes); without `members` user_ids is left out and the server keeps them. */
export function groupEditFields(form: GroupForm, id: string, members: boolean, state: GroupState = RecordState.NORMAL): CallFields<'comEdit'> {
  return {
    id,
    name: form.name.trim(),
    device_ids: JSON.stringify(form.device_ids),
    ...(members ? { user_ids: JSON.stringify(form.user_ids) } : {}),
    notes: form.notes.trim(),
    state,
  };
}

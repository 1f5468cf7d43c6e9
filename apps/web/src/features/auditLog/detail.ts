import { PERMANENT_END_TIME } from '@nest/contracts';
import { formatSeconds } from '../../shared/format';
import type { MessageKey, Vars } from '../../shared/i18n';

type Translate = (key: MessageKey, vars?: Vars) => string;

/** Reasons the server writes (auth and user handlers), labelled under `auditLog.reason`. */
const REASONS: Record<string, MessageKey> = {
  wrong_password: 'auditLog.reason.wrongPassword',
  wrong_old_password: 'auditLog.reason.wrongOldPassword',
  unknown_account: 'auditLog.reason.unknownAccount',
  disabled: 'auditLog.reason.disabled',
  expired: 'auditLog.reason.expired',
  limit_reached: 'auditLog.reason.limitReached',
  throttled: 'auditLog.reason.throttled',
};
const LOCKS: Record<string, MessageKey> = { account: 'auditLog.lock.account', address: 'auditLog.lock.address' };
const ACTIONS: Record<string, MessageKey> = { add: 'auditLog.action.add', edit: 'auditLog.action.edit', delete: 'auditLog.action.delete' };
/** Plain fields shown as "label: value". */
const LABELS: Record<string, MessageKey> = {
  account: 'auditLog.field.account',
  name: 'auditLog.field.name',
  type: 'auditLog.field.type',
  state: 'auditLog.field.state',
  cmd_id: 'auditLog.field.cmdId',
  source: 'auditLog.field.source',
  company_id: 'auditLog.field.company',
  start_time: 'auditLog.field.startTime',
  end_time: 'auditLog.field.endTime',
  fun_list: 'auditLog.field.functions',
  device_ids: 'auditLog.field.devices',
  user_ids: 'auditLog.field.users',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null);
const label = (key: string, t: Translate): string => (LABELS[key] ? t(LABELS[key]) : key);
const scalar = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** "+a +b −c": what a list gained and lost. */
function listChange(before: string[], after: string[]): string {
  const added = after.filter((x) => !before.includes(x)).map((x) => `+${x}`);
  const removed = before.filter((x) => !after.includes(x)).map((x) => `−${x}`);
  return [...added, ...removed].join(' ') || '=';
}

function timeText(key: string, v: unknown, t: Translate): string {
  if (typeof v !== 'number') return scalar(v);
  return key === 'end_time' && v >= PERMANENT_END_TIME ? t('auditLog.permanent') : formatSeconds(v);
}

/** One field's before → after. */
function changeText(key: string, before: unknown, after: unknown, t: Translate): string {
  const b = strings(before);
  const a = strings(after);
  if (b || a) return `${label(key, t)}: ${listChange(b ?? [], a ?? [])}`;
  const show = (v: unknown) => (key === 'start_time' || key === 'end_time' ? timeText(key, v, t) : scalar(v));
  return `${label(key, t)}: ${show(before)} → ${show(after)}`;
}

/**
 * The detail of an audit row in words of the reader's language: reasons and actions by name, list
 * changes as added / removed, times as dates. Keys it does not know are shown as they are, so a detail the
 * server adds later is never hidden.
 */
export function describeDetail(d: Record<string, unknown>, t: Translate): string {
  const parts: string[] = [];
  // Group membership: a snapshot of the lists before and / or after (add: after only; delete: before only).
  const listsBefore = isObject(d.before) ? d.before : null;
  const listsAfter = isObject(d.after) ? d.after : null;
  for (const [key, value] of Object.entries(d)) {
    if (key === 'reason' && typeof value === 'string') parts.push(REASONS[value] ? t(REASONS[value]) : value);
    else if (key === 'locked' && strings(value)) parts.push(t('auditLog.lockedBy', { what: strings(value)!.map((x) => (LOCKS[x] ? t(LOCKS[x]) : x)).join(' / ') }));
    else if (key === 'action' && typeof value === 'string') parts.push(ACTIONS[value] ? t(ACTIONS[value]) : value);
    else if (key === 'reset' && value === 'password') parts.push(t('auditLog.passwordReset'));
    else if ((key === 'before' || key === 'after') && (listsBefore || listsAfter)) continue;
    else if (isObject(value) && ('before' in value || 'after' in value)) parts.push(changeText(key, value.before, value.after, t));
    else if (key === 'start_time' || key === 'end_time') parts.push(`${label(key, t)}: ${timeText(key, value, t)}`);
    else parts.push(`${label(key, t)}: ${scalar(value)}`);
  }
  if (listsBefore || listsAfter) {
    for (const key of new Set([...Object.keys(listsBefore ?? {}), ...Object.keys(listsAfter ?? {})])) {
      parts.push(changeText(key, listsBefore?.[key] ?? [], listsAfter?.[key] ?? [], t));
    }
  }
  return parts.length === 0 ? '--' : parts.join('; ');
}

import { LINK_DROP_REASONS, type LinkDeviceStats, type LinkDropReason } from '@nest/contracts';
import type { networkZh } from './messages';

/** How long ago `at` (ms) was, as a unit and a whole number: seconds under a minute, minutes under an hour. */
export function ago(at: number, now: number): { unit: 's' | 'min' | 'h'; n: number } {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return { unit: 's', n: s };
  if (s < 3600) return { unit: 'min', n: Math.floor(s / 60) };
  return { unit: 'h', n: Math.floor(s / 3600) };
}

/** A rate with at most one decimal ("5", "4.8", "0.5"). */
export const formatRate = (v: number): string => String(Math.round(v * 10) / 10);

/** The non-zero drop counts in the reasons' fixed order. */
export function dropEntries(dropped: Partial<Record<LinkDropReason, number>>): [LinkDropReason, number][] {
  return LINK_DROP_REASONS.filter((r) => (dropped[r] ?? 0) > 0).map((r) => [r, dropped[r]!]);
}

export const droppedTotal = (d: Pick<LinkDeviceStats, 'dropped'>): number => dropEntries(d.dropped).reduce((n, [, v]) => n + v, 0);

/** Devices matching a search (name or sn, case-insensitive) and the online filter. */
export function filterDevices(list: readonly LinkDeviceStats[], search: string, onlyOnline: boolean): LinkDeviceStats[] {
  const q = search.trim().toLowerCase();
  return list.filter((d) => (!onlyOnline || d.online) && (!q || d.name.toLowerCase().includes(q) || d.sn_id.toLowerCase().includes(q)));
}

/** The catalog key of each drop reason (catalog keys are camelCase). */
const REASON_KEYS: Readonly<Record<LinkDropReason, keyof typeof networkZh.reason>> = {
  too_large: 'tooLarge',
  bad_topic: 'badTopic',
  unknown_device: 'unknownDevice',
  disabled_device: 'disabledDevice',
  bad_envelope: 'badEnvelope',
  bad_method: 'badMethod',
  bad_data: 'badData',
  unmatched_reply: 'unmatchedReply',
  rate_limited: 'rateLimited',
  error: 'error',
};
export const reasonKey = (r: LinkDropReason): keyof typeof networkZh.reason => REASON_KEYS[r];

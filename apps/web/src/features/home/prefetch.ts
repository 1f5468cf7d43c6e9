import {
  DEVICE_LIST_DEFAULT_PAGE,
  DEVICE_LIST_DEFAULT_SIZE,
  DEVICE_LIST_DEFAULT_TYPE,
  STATIC_RESOURCES,
  callFunId,
  calls,
  holds,
} from '@nest/contracts';
import { getToken } from '../../shared/cookie';
import { call } from '../../shared/request';
import { getUser } from '../../shared/session';
import { fetchStatic } from './dashboard';

/** What the data screen reads when it opens. */
export type FirstRead = 'deviceList' | 'record' | 'ranking' | 'messages' | 'alarms' | 'tasks' | 'checkingTypes';

/** The leaderboard tab the screen opens on, and how many rows it shows. */
export const FIRST_RANKING = { type: 10, size: 10 } as const;
/** How many timed tasks the list reads. */
export const TASK_PAGE = 50;

/** Reads older than this are not taken (the screen reads afresh). */
const MAX_AGE_MS = 10_000;

let started: { token: string; at: number; reads: Map<FirstRead, Promise<unknown>> } | null = null;

/**
 * Starts the data screen's first reads right after sign-in, beside the fetch of its code and the render of
 * the shell: the screen takes them (takeFirstRead) instead of asking once it has mounted. The same calls
 * with the same options as the screen's own first reads; calls the user may not make are not started.
 */
export function prefetchHomeData(): void {
  const token = getToken();
  const funList = getUser()?.fun_list;
  if (!token) return;
  const reads = new Map<FirstRead, Promise<unknown>>();
  reads.set(
    'deviceList',
    call('deviceList', { type: DEVICE_LIST_DEFAULT_TYPE, page: DEVICE_LIST_DEFAULT_PAGE, size: DEVICE_LIST_DEFAULT_SIZE }),
  );
  reads.set('record', fetchStatic(STATIC_RESOURCES.equipmentRecord, token));
  reads.set('ranking', fetchStatic(STATIC_RESOURCES.inspectionLeaderboard, token, { ...FIRST_RANKING }));
  reads.set('messages', fetchStatic(STATIC_RESOURCES.realtimeMessage, token));
  reads.set('checkingTypes', fetchStatic(STATIC_RESOURCES.checkingType, token));
  if (holds(funList, callFunId(calls.alarmStats.path))) reads.set('alarms', call('alarmStats', {}, { quiet: true }));
  if (holds(funList, callFunId(calls.taskList.path))) reads.set('tasks', call('taskList', { page: 0, size: TASK_PAGE }, { quiet: true }));
  // A read nobody takes must not report an unhandled rejection; the taker still sees the failure.
  for (const read of reads.values()) read.catch(() => undefined);
  started = { token, at: Date.now(), reads };
}

/** The read started at sign-in for the current session, once; null when there is none (read afresh). */
export function takeFirstRead<T = unknown>(name: FirstRead): Promise<T> | null {
  if (!started) return null;
  if (started.token !== getToken() || Date.now() - started.at > MAX_AGE_MS) {
    started = null;
    return null;
  }
  const read = started.reads.get(name);
  started.reads.delete(name);
  return (read as Promise<T> | undefined) ?? null;
}

/** Drops reads not taken (for tests). */
export function clearFirstReads(): void {
  started = null;
}

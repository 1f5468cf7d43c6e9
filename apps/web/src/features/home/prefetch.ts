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
import { FLEET_FIRST_READ, firstReadsTooLate, keepFirstReads, readAllPages } from '../../shared/fleet';
import { fetchStatic } from './dashboard';

/** What the data screen reads when it opens (besides the fleet's device list). */
export type FirstRead = 'record' | 'ranking' | 'messages' | 'alarms' | 'tasks' | 'checkingTypes';

/** The leaderboard tab the screen opens on, and how many rows it shows. */
export const FIRST_RANKING = { type: 10, size: 10 } as const;
/** How many timed tasks the list reads. */
export const TASK_PAGE = 50;

/**
 * Starts the data screen's first reads right after sign-in, beside the fetch of its code and the render of
 * the shell: the screen takes them (takeFirstRead) instead of asking once it has mounted. The same calls
 * with the same options as the screen's own first reads; calls the user may not make are not started,
 * and nothing is started when the screen has already mounted and read for itself.
 */
export function prefetchHomeData(): void {
  const token = getToken();
  const funList = getUser()?.fun_list;
  if (!token || firstReadsTooLate()) return;
  const reads = new Map<FirstRead | typeof FLEET_FIRST_READ, Promise<unknown>>();
  // Every page of the device list (a city's fleet is several), as one page of all of them.
  const page = (n: number) => call('deviceList', { type: DEVICE_LIST_DEFAULT_TYPE, page: DEVICE_LIST_DEFAULT_PAGE + n, size: DEVICE_LIST_DEFAULT_SIZE });
  reads.set(
    FLEET_FIRST_READ,
    readAllPages(page(0), DEVICE_LIST_DEFAULT_SIZE, page).then((list) => ({ list, total: list.length })),
  );
  reads.set('record', fetchStatic(STATIC_RESOURCES.equipmentRecord, token));
  reads.set('ranking', fetchStatic(STATIC_RESOURCES.inspectionLeaderboard, token, { ...FIRST_RANKING }));
  reads.set('messages', fetchStatic(STATIC_RESOURCES.realtimeMessage, token));
  reads.set('checkingTypes', fetchStatic(STATIC_RESOURCES.checkingType, token));
  if (holds(funList, callFunId(calls.alarmStats.path))) reads.set('alarms', call('alarmStats', {}, { quiet: true }));
  if (holds(funList, callFunId(calls.taskList.path))) reads.set('tasks', call('taskList', { page: 0, size: TASK_PAGE }, { quiet: true }));
  keepFirstReads(reads);
}


import { useCallback, useEffect, useRef, useState } from 'react';
import {
  PushMsgId,
  STATIC_RESOURCES,
  SocketState,
  callFunId,
  calls,
  dataChangedPush,
  equipmentRecordSchema,
  holds,
  rankingSchema,
  realtimeMessageSchema,
  type EquipmentRecord,
  type Page,
  type Ranking,
  type RealtimeMessage,
  type TimedTask,
} from '@nest/contracts';
import { z } from 'zod';
import { getToken } from '../../shared/cookie';
import { call } from '../../shared/request';
import { onPush, usePushState } from '../../shared/push';
import { useUser } from '../../shared/session';
import { Refetcher, fetchStatic, panelsOfTopics, type Panel, ALL_PANELS } from './dashboard';
import { takeFirstRead } from '../../shared/fleet';
import { FIRST_RANKING, TASK_PAGE } from './prefetch';

export interface AlarmStats {
  total: number;
  pending: number;
  by_level: { level: number; total: number; pending: number }[];
  by_kind: { kind: string; total: number; pending: number }[];
}
const alarmStatsSchema = z.object({
  total: z.coerce.number(),
  pending: z.coerce.number(),
  by_level: z.array(z.object({ level: z.coerce.number(), total: z.coerce.number(), pending: z.coerce.number() })),
  by_kind: z.array(z.object({ kind: z.string(), total: z.coerce.number(), pending: z.coerce.number() })).default([]),
});

/** A panel's data: undefined while the first load runs, null when it failed or is not permitted. */
export type Loaded<T> = T | null | undefined;

export interface DashboardData {
  record: Loaded<EquipmentRecord>;
  ranking: Loaded<Ranking>;
  checkingTypes: unknown;
  alarmStats: Loaded<AlarmStats>;
  tasks: Loaded<TimedTask[]>;
  messages: Loaded<RealtimeMessage[]>;
  rankingType: number;
  setRankingType: (type: number) => void;
  can: { alarms: boolean; tasks: boolean };
  /** Ask for panels to be read again (coalesced). */
  refresh: (panels: readonly Panel[]) => void;
}

/** Besides pushes, everything is read again this often: a missed push (reconnect) heals itself. */
const SAFETY_REFRESH_MS = 120_000;
/** Coalescing gap of refetches caused by pushes. */
const REFETCH_GAP_MS = 3_000;

/**
 * The data screen's figures: the static resources (equipment record, leaderboard, checking types, real-time
 * messages) and the calls (alarm statistics, timed tasks); read once (taking the reads started at sign-in
 * when there are), then again when push 380 names a topic,
 * on 370, and after the push connection reopens; coalesced by a Refetcher so bursts cost one read each.
 */
export function useDashboard(): DashboardData {
  const user = useUser();
  const funList = user?.fun_list;
  const can = {
    alarms: holds(funList, callFunId(calls.alarmStats.path)),
    tasks: holds(funList, callFunId(calls.taskList.path)),
  };
  const canRef = useRef(can);
  canRef.current = can;

  const [record, setRecord] = useState<Loaded<EquipmentRecord>>(undefined);
  const [ranking, setRanking] = useState<Loaded<Ranking>>(undefined);
  const [checkingTypes, setCheckingTypes] = useState<unknown>(null);
  const [alarmStats, setAlarmStats] = useState<Loaded<AlarmStats>>(undefined);
  const [tasks, setTasks] = useState<Loaded<TimedTask[]>>(undefined);
  const [messages, setMessages] = useState<Loaded<RealtimeMessage[]>>(undefined);
  const [rankingType, setRankingType] = useState(10);
  const rankingTypeRef = useRef(rankingType);
  rankingTypeRef.current = rankingType;

  const load = useCallback(async (panels: Panel[]) => {
    const token = getToken();
    const jobs = panels.map(async (p) => {
      try {
        switch (p) {
          case 'record':
            setRecord(equipmentRecordSchema.parse(await (takeFirstRead('record') ?? fetchStatic(STATIC_RESOURCES.equipmentRecord, token))));
            break;
          case 'ranking': {
            const type = rankingTypeRef.current;
            const first = type === FIRST_RANKING.type ? takeFirstRead('ranking') : null;
            const data = rankingSchema.parse(await (first ?? fetchStatic(STATIC_RESOURCES.inspectionLeaderboard, token, { type, size: FIRST_RANKING.size })));
            // A tab switched meanwhile asks for its own answer.
            if (type === rankingTypeRef.current) setRanking(data);
            break;
          }
          case 'messages':
            setMessages(z.array(realtimeMessageSchema).parse(await (takeFirstRead('messages') ?? fetchStatic(STATIC_RESOURCES.realtimeMessage, token))));
            break;
          case 'alarms':
            if (!canRef.current.alarms) setAlarmStats(null);
            else setAlarmStats(alarmStatsSchema.parse(await (takeFirstRead('alarms') ?? call('alarmStats', {}, { quiet: true }))));
            break;
          case 'tasks':
            if (!canRef.current.tasks) setTasks(null);
            else {
              const page = await (takeFirstRead<Page<TimedTask>>('tasks') ?? call('taskList', { page: 0, size: TASK_PAGE }, { quiet: true }));
              setTasks(page?.list ?? []);
            }
            break;
        }
      } catch {
        // Keep what was shown; only a panel that never loaded turns into its error state.
        const fail = <T,>(prev: Loaded<T>): Loaded<T> => (prev === undefined ? null : prev);
        if (p === 'record') setRecord(fail);
        else if (p === 'ranking') setRanking(fail);
        else if (p === 'messages') setMessages(fail);
        else if (p === 'alarms') setAlarmStats(fail);
        else setTasks(fail);
      }
    });
    await Promise.all(jobs);
  }, []);

  const refetcher = useRef<Refetcher | null>(null);
  useEffect(() => {
    const r = new Refetcher(load, REFETCH_GAP_MS);
    refetcher.current = r;
    r.request(ALL_PANELS);
    const token = getToken();
    (takeFirstRead('checkingTypes') ?? fetchStatic(STATIC_RESOURCES.checkingType, token))
      .then(setCheckingTypes)
      .catch(() => undefined);
    const timer = setInterval(() => r.request(ALL_PANELS), SAFETY_REFRESH_MS);
    return () => {
      clearInterval(timer);
      r.stop();
      refetcher.current = null;
    };
  }, [load]);

  useEffect(() => {
    const off380 = onPush(PushMsgId.DATA_CHANGED, (data) => {
      const parsed = dataChangedPush.safeParse(data);
      if (parsed.success) refetcher.current?.request(panelsOfTopics(parsed.data.topics));
    });
    const off370 = onPush(PushMsgId.ALARM, () => refetcher.current?.request(['alarms', 'messages']));
    return () => {
      off380();
      off370();
    };
  }, []);

  // Pushes missed while the socket was down: read everything once it is back.
  const pushState = usePushState();
  const wasOpen = useRef(false);
  useEffect(() => {
    if (pushState !== SocketState.OPEN) return;
    if (wasOpen.current) refetcher.current?.request(ALL_PANELS);
    wasOpen.current = true;
  }, [pushState]);

  const chooseRanking = useCallback((type: number) => {
    rankingTypeRef.current = type;
    setRankingType(type);
    setRanking(undefined);
    void load(['ranking']);
  }, [load]);

  const refresh = useCallback((panels: readonly Panel[]) => refetcher.current?.request(panels), []);

  return { record, ranking, checkingTypes, alarmStats, tasks, messages, rankingType, setRankingType: chooseRanking, can, refresh };
}

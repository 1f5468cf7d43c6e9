import { useEffect, useRef } from 'react';
import { PushMsgId, SocketState, type Alarm, type User } from '@nest/contracts';
import { call } from '../../shared/request';
import { onPush, usePushState } from '../../shared/push';
import { NEWS_LIMIT, canListAlarms, receiveAlarmPush, resetNews, seedNews } from './alarms';

/**
 * Keeps the news store of a signed-in user who holds alarm_list: the pending count and newest alarms from
 * /alarm/list at sign-in and after every reconnect of the push connection (370s may have been missed), then
 * each 370. `onHigh` hears every newly raised high (30) alarm.
 */
export function useAlarmNews(user: User | null, onHigh: (alarm: Alarm) => void): boolean {
  const allowed = canListAlarms(user?.fun_list);
  const onHighRef = useRef(onHigh);
  onHighRef.current = onHigh;
  const pushState = usePushState();

  useEffect(() => {
    if (!allowed) {
      resetNews();
      return;
    }
    if (pushState !== SocketState.OPEN && pushState !== SocketState.CLOSED) return;
    let live = true;
    call('alarmList', { page: 0, size: NEWS_LIMIT }, { quiet: true })
      .then((data) => {
        if (live) seedNews(data.pending, data.list);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [allowed, user?.u_id, pushState]);

  useEffect(() => {
    if (!allowed) return;
    return onPush(PushMsgId.ALARM, (data) => {
      const push = receiveAlarmPush(data);
      if (push && push.event === 'raised' && push.alarm.level === 30) onHighRef.current(push.alarm);
    });
  }, [allowed]);

  return allowed;
}

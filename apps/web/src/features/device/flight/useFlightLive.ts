import { useEffect, useState } from 'react';
import {
  PushMsgId,
  flowProgressPush,
  missionProgressPush,
  resultAddedPush,
  sortiePush,
  type FlowProgress,
  type MissionProgress,
} from '@nest/contracts';
import { onPush } from '../../../shared/push';

export interface FlightLive {
  flow: FlowProgress | null;
  mission: MissionProgress | null;
  missionName: string | null;
  /** Bumped on every 350 (a result arrived) and 360 (a sortie began or ended) of this device. */
  resultsVersion: number;
  sortiesVersion: number;
}

/** Follows the flow (320), mission (330), results (350) and sorties (360) of the selected device. */
export function useFlightLive(sn: string): FlightLive {
  const [live, setLive] = useState<FlightLive>({ flow: null, mission: null, missionName: null, resultsVersion: 0, sortiesVersion: 0 });

  useEffect(() => {
    setLive({ flow: null, mission: null, missionName: null, resultsVersion: 0, sortiesVersion: 0 });
    const offs = [
      onPush(PushMsgId.FLOW_PROGRESS, (data) => {
        const p = flowProgressPush.safeParse(data);
        if (p.success && p.data.sn_id === sn) setLive((l) => ({ ...l, flow: p.data.flow }));
      }),
      onPush(PushMsgId.MISSION_PROGRESS, (data) => {
        const p = missionProgressPush.safeParse(data);
        if (p.success && p.data.sn_id === sn) setLive((l) => ({ ...l, mission: p.data.mission, missionName: p.data.mission_name ?? l.missionName }));
      }),
      onPush(PushMsgId.RESULT_ADDED, (data) => {
        const p = resultAddedPush.safeParse(data);
        if (p.success && p.data.sn_id === sn) setLive((l) => ({ ...l, resultsVersion: l.resultsVersion + 1 }));
      }),
      onPush(PushMsgId.SORTIE, (data) => {
        const p = sortiePush.safeParse(data);
        if (p.success && p.data.sn_id === sn) setLive((l) => ({ ...l, sortiesVersion: l.sortiesVersion + 1, resultsVersion: l.resultsVersion + 1 }));
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [sn]);

  return live;
}

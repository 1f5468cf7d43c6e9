import type { ReactNode } from 'react';
import { Progress } from 'antd';
import { formatDistanceText, formatHms, type MissionProgress as Mission } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';

/** The mission being flown (push 330): route, waypoint i/n, percent, distance, flight time, photos. */
export function MissionProgress({ mission, name }: { mission: Mission; name: string | null }): ReactNode {
  const { t } = useI18n();
  const wp = Math.min(mission.waypoint_index + 1, mission.waypoint_count);
  return (
    <div className="mission-progress" data-testid="mission-progress" data-state={mission.state} data-percent={Math.round(mission.percent)}>
      <div className="mission-head">
        <span className="mission-name" title={name ?? ''}>
          {name ?? t('device.flight.noRouteName')}
        </span>
        <span className="mission-state">{t(`device.flight.missionState.${mission.state}`)}</span>
      </div>
      <Progress percent={Math.round(mission.percent)} size="small" status={mission.state === 'interrupted' ? 'exception' : mission.state === 'done' ? 'success' : 'active'} />
      <dl className="mission-figures">
        <div>
          <dt>{t('device.flight.waypoint')}</dt>
          <dd data-testid="mission-waypoint">
            {wp}/{mission.waypoint_count}
          </dd>
        </div>
        <div>
          <dt>{t('device.flight.distanceFlown')}</dt>
          <dd>{formatDistanceText(mission.distance_flown)}</dd>
        </div>
        <div>
          <dt>{t('device.flight.flightTime')}</dt>
          <dd>{formatHms(mission.flight_time)}</dd>
        </div>
        <div>
          <dt>{t('device.flight.photos')}</dt>
          <dd data-testid="mission-photos">{mission.photos}</dd>
        </div>
      </dl>
    </div>
  );
}

import { useEffect, type ReactNode } from 'react';
import { AIRBORNE_FLIGHT_STATES, type DroneTelemetry } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import { addOverlayPosition, resetOverlay, setOverlayRoute } from '../../../shared/map/flightOverlay';
import { call } from '../../../shared/request';
import { AdminDrawers } from '../admin/AdminDrawers';
import { LatestSortie } from '../results/LatestSortie';
import { FlightControls } from './FlightControls';
import { FlowTimeline } from './FlowTimeline';
import { MissionProgress } from './MissionProgress';
import { useDeviceCommand } from './useDeviceCommand';
import { useFlightLive } from './useFlightLive';
import './flight.css';

/** Flight states that count as airborne for the track (FlightState 1 taking off, 2 air, 3 landing, 8 returning). */
const isAirborne = (d: DroneTelemetry) => AIRBORNE_FLIGHT_STATES.includes(d.flight_state);

/** Control panel, flow timeline, mission progress, latest sortie and admin logs of the selected device. */
export function FlightSection({ sn, drone, blocked }: { sn: string; drone: DroneTelemetry | undefined; blocked: string | null }): ReactNode {
  const { t } = useI18n();
  const cmd = useDeviceCommand(sn);
  const live = useFlightLive(sn);
  const missionId = live.mission?.mission_id ?? null;

  useEffect(() => {
    resetOverlay(sn);
    return () => resetOverlay(null);
  }, [sn]);

  useEffect(() => {
    if (drone && Number.isFinite(drone.lat) && Number.isFinite(drone.lng) && (drone.lat !== 0 || drone.lng !== 0)) {
      addOverlayPosition(sn, { lat: drone.lat, lng: drone.lng }, isAirborne(drone));
    }
  }, [sn, drone]);

  // A 330 names the route being flown: draw its waypoints.
  useEffect(() => {
    if (!missionId) return;
    let live = true;
    call('missionInfo', { id: missionId }, { quiet: true })
      .then((m) => live && setOverlayRoute(sn, m.waypoints.map((w) => ({ lat: w.lat, lng: w.lng }))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sn, missionId]);

  return (
    <>
      <h3>{t('device.section.control')}</h3>
      <FlightControls sn={sn} drone={drone} flow={live.flow} mission={live.mission} blocked={blocked} cmd={cmd} />
      {live.mission && (
        <>
          <h3>{t('device.section.mission')}</h3>
          <MissionProgress mission={live.mission} name={live.missionName} />
        </>
      )}
      {live.flow && (
        <>
          <h3>{t('device.section.flow')}</h3>
          <FlowTimeline flow={live.flow} />
        </>
      )}
      <h3>{t('device.section.results')}</h3>
      <LatestSortie sn={sn} sortiesVersion={live.sortiesVersion} resultsVersion={live.resultsVersion} />
      <AdminDrawers sn={sn} />
    </>
  );
}

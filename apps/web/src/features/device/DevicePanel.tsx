import { Suspense, lazy, type ReactNode } from 'react';
import { Button, Tooltip } from 'antd';
import { CloseOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { OnlineStatus, formatTime, DeviceCategory } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { useUser } from '../../shared/session';
import { StatusBadge, holderOf, type FleetDevice } from '../../shared/fleet';
import { cameraReadouts, droneReadouts, environmentReadouts, nestPartReadouts, type Readout } from './readouts';
import { FlightSection } from './flight/FlightSection';
import { useControl } from './useControl';
import { useDeviceLive } from './useDeviceLive';
import './device.css';

const VideoPlayer = lazy(() => import('../../shared/video/VideoPlayer'));

function Grid({ items, testPrefix }: { items: (Omit<Readout, 'label'> & { label: string })[]; testPrefix: string }): ReactNode {
  return (
    <dl className="readouts">
      {items.map((r) => (
        <div key={r.id} className="readout" data-testid={`${testPrefix}-${r.id}`}>
          <dt>{r.label}</dt>
          <dd className={r.tone ? `tone-${r.tone}` : undefined}>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The live panel of one device: verification, video, telemetry, nest parts, camera, control connection. */
export function DevicePanel({ device, onClose }: { device: FleetDevice; onClose: () => void }): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const { telemetry, at } = useDeviceLive(device.sn);
  const control = useControl(device.sn);
  const drone = telemetry?.drone;
  const nest = telemetry?.nest;
  const isNest = device.item.type !== 'alone';
  const heldBySomeoneElse = device.state === OnlineStatus.CONNECTED_BY_OTHER && !!device.connectedBy && device.connectedBy.u_id !== user?.u_id && !control.holding;
  // The badge agrees with the control line: holding here is "you", even before the status push arrives.
  const holder = control.holding && device.state !== OnlineStatus.OFFLINE ? ({ mine: true } as const) : holderOf(device, user?.u_id);
  // Why commands are disabled now; taking control (the button above) comes first.
  const blocked =
    device.state === OnlineStatus.OFFLINE
      ? t('device.control.offline')
      : heldBySomeoneElse
        ? t('device.control.heldBy', { nick: device.connectedBy?.nick ?? '' })
        : !control.holding
          ? t('device.flight.takeControlFirst')
          : null;
  const label = (items: Readout[]) => items.map((r) => ({ ...r, label: t(r.label) }));

  return (
    <section className="home-panel device-panel" data-testid="device-panel" data-sn={device.sn}>
      <header className="device-panel-head">
        <div className="device-panel-title">
          <h2 title={device.name}>{device.name}</h2>
          <span>
            {DeviceCategory.label(device.item.type, lang)} · {device.sn}
          </span>
        </div>
        <StatusBadge state={device.state} holder={holder} />
        <Button type="text" size="small" icon={<CloseOutlined />} onClick={onClose} aria-label={t('common.close')} data-testid="device-panel-close" />
      </header>

      <div className="device-panel-body">
        <Suspense fallback={<div className="video-player" />}>
          <VideoPlayer url={device.streamUrl} live testId="live-video" />
        </Suspense>

        <div className={`device-control${control.holding ? ' holding' : ' not-holding'}`}>
          <div className="device-control-text" data-testid="control-state">
            {control.holding
              ? t('device.control.holding')
              : heldBySomeoneElse
                ? t('device.control.heldBy', { nick: device.connectedBy?.nick ?? '' })
                : device.state === OnlineStatus.OFFLINE
                  ? t('device.control.offline')
                  : t('device.control.free')}
          </div>
          {control.holding ? (
            <Button size="small" icon={<UnlockOutlined />} loading={control.busy} onClick={() => void control.release()} data-testid="control-release">
              {t('device.control.release')}
            </Button>
          ) : (
            <Tooltip title={heldBySomeoneElse ? t('device.control.heldBy', { nick: device.connectedBy?.nick ?? '' }) : undefined}>
              <Button
                size="small"
                type="primary"
                icon={<LockOutlined />}
                loading={control.busy}
                disabled={heldBySomeoneElse || device.state === OnlineStatus.OFFLINE}
                onClick={() => void control.take()}
                data-testid="control-take"
              >
                {t('device.control.take')}
              </Button>
            </Tooltip>
          )}
        </div>

        <div className="device-updated" data-testid="telemetry-updated">
          {at ? t('device.updatedAt', { time: formatTime(at, lang) }) : t('device.waiting')}
        </div>

        <FlightSection sn={device.sn} drone={drone} blocked={blocked} />

        <h3>{t('device.section.flight')}</h3>
        <Grid items={label(droneReadouts(drone, lang))} testPrefix="readout" />

        {isNest && (
          <>
            <h3>{t('device.section.environment')}</h3>
            <Grid items={label(environmentReadouts(nest, lang))} testPrefix="readout" />
            <h3>{t('device.section.parts')}</h3>
            <Grid items={nestPartReadouts(nest, device.item.type, lang)} testPrefix="part" />
          </>
        )}

        <h3>{t('device.section.camera')}</h3>
        <Grid items={label(cameraReadouts(drone, lang))} testPrefix="readout" />
      </div>
    </section>
  );
}

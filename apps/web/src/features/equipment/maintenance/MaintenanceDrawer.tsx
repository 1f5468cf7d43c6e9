import { useState, type ReactNode } from 'react';
import { Alert, Drawer, Tabs, Tag, Tooltip } from 'antd';
import { DeviceProtocol, calls, holds, type CallFields, type DeviceListItem } from '@nest/contracts';
import { useI18n, type MessageKey } from '../../../shared/i18n';
import { notify } from '../../../shared/notify';
import { call } from '../../../shared/request';
import { useUser } from '../../../shared/session';
import { AzimuthPanel, BeaconPanel, CalibratePanel, FirmwarePanel, HistoryPanel, LogPanel, RtkPanel, type MaintenanceCall, type PanelProps } from './panels';
import { DebugPanel } from './DebugPanel';
import { useMaintenance } from './useMaintenance';
import './maintenance.css';

/** `nativeOnly`: the native nest protocol has it, a DJI dock's does not (the server refuses it as unsupported). */
const TABS: { key: string; label: MessageKey; call: MaintenanceCall; panel: (p: PanelProps) => ReactNode; nativeOnly?: boolean }[] = [
  { key: 'firmware', label: 'maintenance.tab.firmware', call: 'deviceUpgrade', panel: FirmwarePanel },
  { key: 'calibrate', label: 'maintenance.tab.calibrate', call: 'deviceCalibrate', panel: CalibratePanel, nativeOnly: true },
  { key: 'beacon', label: 'maintenance.tab.beacon', call: 'deviceBeacon', panel: BeaconPanel, nativeOnly: true },
  { key: 'azimuth', label: 'maintenance.tab.azimuth', call: 'deviceAzimuth', panel: AzimuthPanel, nativeOnly: true },
  { key: 'rtk', label: 'maintenance.tab.rtk', call: 'deviceRtk', panel: RtkPanel, nativeOnly: true },
  { key: 'log', label: 'maintenance.tab.log', call: 'deviceLog', panel: LogPanel, nativeOnly: true },
];
/** Remote debug: offered for DJI docks only (their protocol has it). */
const DEBUG_TAB = { key: 'debug', label: 'maintenance.tab.debug', call: 'deviceDebug', panel: DebugPanel } as const;

/**
 * Device maintenance of one device: firmware upgrade, calibration, beacon, azimuth, RTK, nest log upload, a
 * DJI dock's remote debug (its other native-only tabs disabled with the reason) and the operation history (server maintenance/, contracts maintenance.ts). Operations follow push 390 live (and
 * a poll while one runs). Buttons need the call's function; a disabled device, someone else's control hold
 * or an offline device disable them with the reason shown. `device` null keeps the drawer closed.
 */
export default function MaintenanceDrawer({ device, onClose }: { device: DeviceListItem | null; onClose: () => void }): ReactNode {
  const { t } = useI18n();
  return (
    <Drawer
      open={device !== null}
      onClose={onClose}
      title={device ? t('maintenance.title', { name: device.name }) : ''}
      size={920}
      destroyOnHidden
      data-testid="maintenance-drawer"
    >
      {device && <MaintenanceBody device={device} />}
    </Drawer>
  );
}

function MaintenanceBody({ device }: { device: DeviceListItem }): ReactNode {
  const { t } = useI18n();
  const user = useUser();
  const data = useMaintenance(device.sn_id);
  const [tab, setTab] = useState('firmware');
  const online = data.live ? data.live.online : device.state !== 2;
  const dji = device.protocol === DeviceProtocol.DJI;
  const heldByOther = device.connected_by && device.connected_by.u_id !== user?.u_id ? device.connected_by : null;
  const blocked = !device.enabled
    ? t('maintenance.disabled')
    : heldByOther
      ? t('maintenance.heldBy', { nick: heldByOther.nick })
      : !online
        ? t('maintenance.offlineHint')
        : null;

  const run = async (name: MaintenanceCall, fields: CallFields<MaintenanceCall>): Promise<boolean> => {
    try {
      const op = await call(name, fields);
      data.add(op);
      notify().success(op.state === 'ok' ? t('maintenance.done') : t('maintenance.started'));
      return true;
    } catch {
      // The request layer showed why; the refusal may have been recorded (timeout, offline): read again.
      data.reload();
      return false;
    }
  };

  return (
    <div data-testid="maintenance-body" data-sn={device.sn_id}>
      <div className="maint-head">
        <strong>{device.sn_id}</strong>
        <Tag color={online ? 'green' : 'default'} data-testid="maint-online">
          {online ? t('maintenance.online') : t('maintenance.offline')}
        </Tag>
        <span className="maint-muted">
          {t('maintenance.firmwareNow')}: {data.live?.firmware ?? t('maintenance.unknown')}
        </span>
      </div>
      {blocked && <Alert type={device.enabled ? 'warning' : 'error'} showIcon title={blocked} style={{ marginBottom: 8 }} data-testid="maint-blocked" />}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          ...[...TABS, ...(dji ? [DEBUG_TAB] : [])].map(({ key, label, call: name, panel: Panel, ...tab }) => {
            // A DJI dock's protocol has no such operation: the tab stays visible, disabled, with the reason.
            const unsupported = dji && 'nativeOnly' in tab && tab.nativeOnly === true;
            return {
              key,
              disabled: unsupported,
              label: unsupported ? (
                <Tooltip title={t('maintenance.nativeOnly')}>
                  <span data-testid={`maint-tab-unsupported-${key}`} aria-label={`${t(label)}: ${t('maintenance.nativeOnly')}`}>
                    {t(label)}
                  </span>
                </Tooltip>
              ) : (
                t(label)
              ),
              children: <Panel device={device} data={data} allowed={holds(user?.fun_list, calls[name].access)} blocked={blocked} run={run} />,
            };
          }),
          { key: 'history', label: t('maintenance.tab.history'), children: <HistoryPanel data={data} /> },
        ]}
      />
    </div>
  );
}

import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, InputNumber, Modal, Radio, Select, Spin } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { CmdType, DEVICE_TEXT, NavigationAction, ONE_KEY_TAKEOFF_HEIGHT, PREFLIGHT, formatMmSs, type PreflightCheck } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import { call } from '../../../shared/request';
import { Checklist } from './Checklist';
import type { DeviceCommand } from './useDeviceCommand';
import { useDeviceRoutes } from './useRoutes';

export interface LaunchDialogProps {
  sn: string;
  open: boolean;
  battery: number | null;
  cmd: DeviceCommand;
  onClose: () => void;
}

/**
 * One-key takeoff: a saved route of this device or "take off and hover" at a height, the pre-flight
 * checklist of the server (the same checks the takeoff runs), launch only when every check passes. A
 * route shows its stored estimate (est_time, geo routeEstimate: the value of the route list and of the
 * editor, and the one the server's endurance check compares with the battery).
 */
export function LaunchDialog({ sn, open, battery, cmd, onClose }: LaunchDialogProps): ReactNode {
  const { t, lang } = useI18n();
  const { routes, loading } = useDeviceRoutes(sn, open);
  const [mode, setMode] = useState<'route' | 'hover'>('route');
  const [missionId, setMissionId] = useState<string | undefined>();
  const [height, setHeight] = useState<number>(ONE_KEY_TAKEOFF_HEIGHT);
  const [checks, setChecks] = useState<{ ready: boolean; checks: PreflightCheck[] } | null>(null);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    if (mode === 'route' && !missionId && routes[0]) setMissionId(routes[0].id);
  }, [routes, mode, missionId]);

  const check = useCallback(async () => {
    setChecking(true);
    try {
      const mission = mode === 'route' && missionId ? { mission_id: missionId } : {};
      setChecks(await call('flightCheck', { sn_id: sn, ...mission }, { quiet: true }));
    } catch {
      setChecks(null);
    } finally {
      setChecking(false);
    }
  }, [sn, mode, missionId]);

  useEffect(() => {
    if (open) void check();
  }, [open, check]);

  const batteryCheck = checks?.checks.find((c) => c.item === 'battery')?.value;
  const level = typeof batteryCheck === 'number' ? batteryCheck : battery;
  const lowBattery = level !== null && level < PREFLIGHT.minBatteryPercent;
  const needRoute = mode === 'route' && !missionId;
  const canLaunch = !!checks?.ready && !needRoute && !checking;

  const launch = () => {
    const sent =
      mode === 'route' && missionId
        ? cmd.control('takeoff', { cmd_type: CmdType.NAVIGATION, action_cmd: NavigationAction.START, value: missionId })
        : cmd.control('takeoff', { cmd_type: CmdType.TAKEOFF, value: height });
    if (sent) onClose();
  };

  return (
    <Modal
      open={open}
      title={t('device.flight.launchTitle')}
      onCancel={onClose}
      destroyOnHidden
      width={460}
      className="launch-dialog"
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" disabled={!canLaunch} onClick={launch} data-testid="launch-confirm">
          {t('device.flight.launch')}
        </Button>,
      ]}
    >
      <div className="launch-body" data-testid="launch-dialog">
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as 'route' | 'hover')} optionType="button" size="small">
          <Radio.Button value="route">
            <span data-testid="launch-mode-route">{t('device.flight.modeRoute')}</span>
          </Radio.Button>
          <Radio.Button value="hover">
            <span data-testid="launch-mode-hover">{t('device.flight.modeHover')}</span>
          </Radio.Button>
        </Radio.Group>
        {mode === 'route' ? (
          <Select
            className="launch-route"
            data-testid="launch-route"
            loading={loading}
            value={missionId}
            onChange={setMissionId}
            placeholder={t('device.flight.pickRoute')}
            notFoundContent={loading ? <Spin size="small" /> : t('device.flight.noRoutes')}
            options={routes.map((r) => ({ value: r.id, label: <span data-testid={`route-option-${r.id}`}>{`${r.name} · ${r.f_title} · ${formatMmSs(r.est_time)}`}</span>, title: r.name }))}
          />
        ) : (
          <label className="launch-height">
            {t('device.flight.hoverHeight')}
            <InputNumber min={5} max={500} value={height} onChange={(v) => setHeight(v ?? ONE_KEY_TAKEOFF_HEIGHT)} addonAfter="m" size="small" data-testid="launch-height" />
          </label>
        )}
        {lowBattery && <Alert type="warning" showIcon message={DEVICE_TEXT.lowBatteryPrompt[lang]} data-testid="low-battery" />}
        <div className="launch-checks-head">
          <span>{t('device.flight.checklist')}</span>
          <Button size="small" type="text" icon={<ReloadOutlined />} loading={checking} onClick={() => void check()} data-testid="checks-refresh">
            {t('device.flight.recheck')}
          </Button>
        </div>
        {checks ? (
          <>
            <Checklist checks={checks.checks} />
            <div className={checks.ready ? 'checks-ready' : 'checks-blocked'} data-testid="checks-summary" data-ready={checks.ready ? '1' : '0'}>
              {checks.ready ? t('device.flight.checksPass') : t('device.flight.checksFail')}
            </div>
          </>
        ) : (
          <div className="checks-blocked">{checking ? <Spin size="small" /> : t('device.flight.checksUnavailable')}</div>
        )}
      </div>
    </Modal>
  );
}

import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Popconfirm, Select, Slider, Switch, Tooltip } from 'antd';
import {
  CameraOutlined,
  CaretRightOutlined,
  HomeOutlined,
  PauseOutlined,
  RocketOutlined,
  SettingOutlined,
  StopOutlined,
  VerticalAlignBottomOutlined,
  VideoCameraOutlined,
  AimOutlined,
  DownloadOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { CmdType, FlightMode, GimbalAction, NON_SELECTABLE_FLIGHT_MODES, NavigationAction, ZOOM_MAX, ZOOM_MIN, type DroneTelemetry, type FlowProgress, type MissionProgress } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import { LaunchDialog } from './LaunchDialog';
import type { DeviceCommand } from './useDeviceCommand';

const StickPanel = lazy(() => import('./StickPanel'));
const CameraDrawer = lazy(() => import('../camera/CameraDrawer'));

export interface FlightControlsProps {
  sn: string;
  drone: DroneTelemetry | undefined;
  flow: FlowProgress | null;
  mission: MissionProgress | null;
  /** Why nothing may be commanded now (offline, held by someone else, control not taken), or null. */
  blocked: string | null;
  cmd: DeviceCommand;
}

/** A button with the reason it is disabled in its tooltip. */
function Act({ blocked, title, disabled, ...rest }: { blocked: string | null; title: string } & React.ComponentProps<typeof Button>): ReactNode {
  // `disabled` is taken out of `rest` so the spread cannot undo the block (no control held, offline...).
  return (
    <Tooltip title={blocked ?? title}>
      <span className="flight-act">
        <Button size="small" {...rest} disabled={!!blocked || disabled} />
      </span>
    </Tooltip>
  );
}

/** The control panel of one device: takeoff / landing / return, process control, mode, gimbal, camera, sticks. */
export function FlightControls({ sn, drone, flow, mission, blocked, cmd }: FlightControlsProps): ReactNode {
  const { t, lang } = useI18n();
  const [launchOpen, setLaunchOpen] = useState(false);
  const [cameraOpen, setCameraOpen] = useState(false);
  const [stickMode, setStickMode] = useState(false);
  const [recording, setRecording] = useState(false);
  const [pitch, setPitch] = useState(0);
  const [yaw, setYaw] = useState(0);
  const [zoom, setZoom] = useState(1);
  const busy = cmd.busy;
  const stickRef = useRef(stickMode);
  stickRef.current = stickMode;
  const running = flow?.state === 'running' || mission?.state === 'running' || mission?.state === 'returning';
  const paused = flow?.state === 'paused' || mission?.state === 'paused';
  const canProcess = running || paused;
  const resumable = mission?.state === 'interrupted' && !!mission.mission_id && mission.waypoint_index > 0 && mission.waypoint_index < mission.waypoint_count;

  // The device refused stick mode (on the ground, say): the switch goes back off; recording likewise.
  const stickReply = cmd.states['stick-mode'];
  useEffect(() => {
    if (stickReply?.status === 'failed' && stickRef.current) setStickMode(false);
  }, [stickReply]);
  const recordReply = cmd.states.record;
  useEffect(() => {
    if (recordReply?.status === 'failed') setRecording((r) => !r);
  }, [recordReply]);

  // Control lost (released, taken away, offline): leave stick mode.
  useEffect(() => {
    if (blocked && stickMode) setStickMode(false);
  }, [blocked, stickMode]);

  // Closing the panel (or another device chosen) leaves stick mode; the stick panel sends neutral first.
  const cmdRef = useRef(cmd);
  cmdRef.current = cmd;
  useEffect(
    () => () => {
      if (stickRef.current) cmdRef.current.control('stick-mode', { cmd_type: CmdType.STICK_MODE, action_cmd: 0, value: 0 });
    },
    [],
  );

  const setStick = (on: boolean) => {
    if (cmd.control('stick-mode', { cmd_type: CmdType.STICK_MODE, action_cmd: on ? 1 : 0, value: on ? 1 : 0 }) || !on) setStickMode(on);
  };

  return (
    <div className="flight-controls" data-testid="flight-controls" data-blocked={blocked ? '1' : '0'}>
      {blocked && (
        <div className="flight-blocked" data-testid="flight-blocked">
          {blocked}
        </div>
      )}
      {cmd.refusal && (
        <div className="flight-refusal" role="alert" data-testid="flight-refusal" data-key={cmd.refusal.key}>
          {t('device.flight.refused', { text: cmd.refusal.text ?? '' })}
        </div>
      )}
      <div className="flight-row">
        <Act blocked={blocked} title={t('device.flight.takeoff')} type="primary" icon={<RocketOutlined />} onClick={() => setLaunchOpen(true)} data-testid="act-takeoff">
          {t('device.flight.takeoff')}
        </Act>
        <Act blocked={blocked} title={t('device.flight.land')} icon={<DownloadOutlined />} loading={busy('land')} onClick={() => cmd.control('land', { cmd_type: CmdType.LAND })} data-testid="act-land">
          {t('device.flight.land')}
        </Act>
        {/* Returning abandons the route in flight: confirmed first, as interrupting is. */}
        <Popconfirm
          title={t('device.flight.returnConfirm')}
          onConfirm={() => cmd.control('return', { cmd_type: CmdType.RETURN })}
          disabled={!!blocked}
          okText={t('common.ok')}
          cancelText={t('common.cancel')}
        >
          <span className="flight-act">
            <Tooltip title={blocked ?? t('device.flight.returnHome')}>
              <Button size="small" icon={<HomeOutlined />} loading={busy('return')} disabled={!!blocked} data-testid="act-return">
                {t('device.flight.returnHome')}
              </Button>
            </Tooltip>
          </span>
        </Popconfirm>
        <Act blocked={blocked} title={t('device.flight.landHere')} icon={<VerticalAlignBottomOutlined />} loading={busy('land-here')} onClick={() => cmd.control('land-here', { cmd_type: CmdType.LAND_HERE })} data-testid="act-land-here">
          {t('device.flight.landHere')}
        </Act>
      </div>
      <div className="flight-row">
        <Act blocked={blocked} title={t('device.flight.pause')} icon={<PauseOutlined />} disabled={!running} onClick={() => cmd.process(1)} data-testid="act-pause">
          {t('device.flight.pause')}
        </Act>
        <Act blocked={blocked} title={t('device.flight.continue')} icon={<CaretRightOutlined />} disabled={!paused} onClick={() => cmd.process(2)} data-testid="act-continue">
          {t('device.flight.continue')}
        </Act>
        <Popconfirm title={t('device.flight.interruptConfirm')} onConfirm={() => cmd.process(3)} disabled={!!blocked || !canProcess} okText={t('common.ok')} cancelText={t('common.cancel')}>
          <span className="flight-act">
            <Tooltip title={blocked ?? t('device.flight.interrupt')}>
              <Button size="small" danger icon={<StopOutlined />} disabled={!!blocked || !canProcess} data-testid="act-interrupt">
                {t('device.flight.interrupt')}
              </Button>
            </Tooltip>
          </span>
        </Popconfirm>
        {resumable && mission?.mission_id && (
          <Act
            blocked={blocked}
            title={t('device.flight.resume')}
            icon={<RedoOutlined />}
            onClick={() => cmd.control('resume', { cmd_type: CmdType.NAVIGATION, action_cmd: NavigationAction.RESUME, value: mission.mission_id ?? '' })}
            data-testid="act-resume"
          >
            {t('device.flight.resume')}
          </Act>
        )}
      </div>

      <div className="flight-field">
        <span>{t('device.flight.mode')}</span>
        <Select
          size="small"
          disabled={!!blocked}
          value={drone?.flight_mode}
          placeholder="--"
          onChange={(v: number) => cmd.control('mode', { cmd_type: CmdType.FLIGHT_MODE, value: v })}
          options={FlightMode.options(lang).map((o) => ({ ...o, disabled: NON_SELECTABLE_FLIGHT_MODES.has(o.value) }))}
          data-testid="flight-mode"
        />
      </div>
      <div className="flight-field">
        <span>{t('device.flight.gimbalPitch')}</span>
        <Slider min={-90} max={30} value={pitch} disabled={!!blocked} onChange={setPitch} onChangeComplete={(v: number) => cmd.control('gimbal-pitch', { cmd_type: CmdType.GIMBAL, action_cmd: GimbalAction.PITCH, value: v })} />
      </div>
      <div className="flight-field">
        <span>{t('device.flight.gimbalYaw')}</span>
        <Slider min={-180} max={180} value={yaw} disabled={!!blocked} onChange={setYaw} onChangeComplete={(v: number) => cmd.control('gimbal-yaw', { cmd_type: CmdType.GIMBAL, action_cmd: GimbalAction.YAW, value: v })} />
      </div>
      <div className="flight-field">
        <span>{t('device.flight.zoom')}</span>
        <Slider min={ZOOM_MIN} max={ZOOM_MAX} value={zoom} disabled={!!blocked} onChange={setZoom} onChangeComplete={(v: number) => cmd.control('zoom', { cmd_type: CmdType.ZOOM, value: v })} tooltip={{ formatter: (v) => `${v}x` }} />
      </div>
      <div className="flight-row">
        <Act
          blocked={blocked}
          title={t('device.flight.gimbalReset')}
          icon={<AimOutlined />}
          onClick={() => {
            setPitch(0);
            setYaw(0);
            cmd.control('gimbal-reset', { cmd_type: CmdType.GIMBAL, action_cmd: GimbalAction.RESET });
          }}
          data-testid="act-gimbal-reset"
        >
          {t('device.flight.gimbalReset')}
        </Act>
        <Act blocked={blocked} title={t('device.flight.photo')} icon={<CameraOutlined />} loading={busy('photo')} onClick={() => cmd.control('photo', { cmd_type: CmdType.PHOTO })} data-testid="act-photo">
          {t('device.flight.photo')}
        </Act>
        <Act
          blocked={blocked}
          title={recording ? t('device.flight.recordStop') : t('device.flight.recordStart')}
          icon={<VideoCameraOutlined />}
          danger={recording}
          onClick={() => {
            if (cmd.control('record', { cmd_type: CmdType.RECORD, action_cmd: recording ? 0 : 1, value: recording ? 0 : 1 })) setRecording(!recording);
          }}
          data-testid="act-record"
        >
          {recording ? t('device.flight.recordStop') : t('device.flight.recordStart')}
        </Act>
        <Button size="small" icon={<SettingOutlined />} onClick={() => setCameraOpen(true)} data-testid="act-camera">
          {t('device.camera.open')}
        </Button>
      </div>
      <div className="flight-field flight-stick-toggle">
        <span>{t('device.flight.stickMode')}</span>
        <Tooltip title={blocked ?? t('device.flight.stickHint')}>
          <Switch size="small" checked={stickMode} disabled={!!blocked} onChange={setStick} data-testid="stick-mode" />
        </Tooltip>
      </div>
      {stickMode && (
        <Suspense fallback={null}>
          <StickPanel cmd={cmd} onExit={() => setStick(false)} />
        </Suspense>
      )}
      {launchOpen && <LaunchDialog sn={sn} open={launchOpen} battery={drone?.battery.percent ?? null} cmd={cmd} onClose={() => setLaunchOpen(false)} />}
      {cameraOpen && (
        <Suspense fallback={null}>
          <CameraDrawer open={cameraOpen} drone={drone} blocked={blocked} cmd={cmd} onClose={() => setCameraOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

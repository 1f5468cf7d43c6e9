import { useMemo, useState, type ReactNode } from 'react';
import { Button, Drawer, Form, InputNumber, Select } from 'antd';
import {
  CmdType,
  Defogging,
  EXPOSURE_VALUE_OPTIONS,
  ExposureMode,
  GridType,
  ISO_OPTIONS,
  PHOTO_FORMAT_OPTIONS,
  PHOTO_SIZE_OPTIONS,
  PictureMode,
  PreviewBitrate,
  PreviewResolution,
  RECORDING_BITRATE_OPTIONS,
  RECORDING_RESOLUTION_OPTIONS,
  SHUTTER_OPTIONS,
  ThermalPalette,
  WhiteBalance,
  type CameraSettings,
  type DroneTelemetry,
} from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import type { DeviceCommand } from '../flight/useDeviceCommand';
import { changedSettings, reportedSettings } from './settings';

const opts = <T extends string | number>(values: readonly T[], fmt: (v: T) => string = String) => values.map((v) => ({ value: v, label: fmt(v) }));

export interface CameraDrawerProps {
  open: boolean;
  drone: DroneTelemetry | undefined;
  /** The device's full reported settings (state `camera`), when known. */
  reported?: unknown;
  blocked: string | null;
  cmd: DeviceCommand;
  onClose: () => void;
}

/** Camera settings of the drone (lazy chunk). Apply sends cmd_type 9 with only the keys that changed. */
export default function CameraDrawer({ open, drone, reported, blocked, cmd, onClose }: CameraDrawerProps): ReactNode {
  const { t, lang } = useI18n();
  const base = useMemo(() => reportedSettings(drone, reported), [drone, reported]);
  const [edits, setEdits] = useState<Partial<CameraSettings>>({});
  const value = { ...base, ...edits };
  const patch = changedSettings(base, edits);
  const set = <K extends keyof CameraSettings>(k: K) => (v: CameraSettings[K]) => setEdits((e) => ({ ...e, [k]: v }));

  const apply = () => {
    if (!patch) return;
    if (cmd.control('camera', { cmd_type: CmdType.CAMERA, settings: patch })) setEdits({});
  };

  const sel = <K extends keyof CameraSettings>(k: K, label: string, options: { value: CameraSettings[K]; label: string }[]) => (
    <Form.Item label={label} key={k}>
      <Select size="small" value={value[k]} onChange={set(k)} options={options as { value: string | number; label: string }[]} data-testid={`cam-${k}`} />
    </Form.Item>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('device.camera.title')}
      size={360}
      className="camera-drawer"
      extra={
        <Button type="primary" size="small" disabled={!!blocked || !patch} onClick={apply} data-testid="cam-apply">
          {t('device.camera.apply')}
        </Button>
      }
    >
      <Form layout="horizontal" size="small" labelCol={{ span: 10 }} wrapperCol={{ span: 14 }} colon={false} className="camera-form" data-testid="camera-form">
        <h4>{t('device.camera.photo')}</h4>
        {sel('photo_size', t('device.camera.photoSize'), opts(PHOTO_SIZE_OPTIONS))}
        {sel('photo_format', t('device.camera.photoFormat'), opts(PHOTO_FORMAT_OPTIONS))}
        {sel('picture_mode', t('device.camera.pictureMode'), PictureMode.options(lang) as { value: CameraSettings['picture_mode']; label: string }[])}
        {value.picture_mode === 2 && sel('burst_count', t('device.camera.burstCount'), opts([3, 5, 7] as const))}
        {value.picture_mode === 3 && (
          <Form.Item label={t('device.camera.timedInterval')}>
            <InputNumber size="small" min={2} max={60} value={value.timed_interval} onChange={(v) => v !== null && set('timed_interval')(v)} addonAfter="s" />
          </Form.Item>
        )}
        {value.picture_mode === 4 && (
          <Form.Item label={t('device.camera.delaySeconds')}>
            <InputNumber size="small" min={1} max={10} value={value.delay_seconds} onChange={(v) => v !== null && set('delay_seconds')(v)} addonAfter="s" />
          </Form.Item>
        )}
        <h4>{t('device.camera.exposure')}</h4>
        {sel('exp_mode', t('device.camera.expMode'), ExposureMode.options(lang))}
        {sel('exp_value', t('device.camera.expValue'), opts(EXPOSURE_VALUE_OPTIONS, (v) => `${v > 0 ? '+' : ''}${v.toFixed(1)} EV`))}
        {sel('iso', 'ISO', opts(ISO_OPTIONS))}
        {sel('shutter', t('device.camera.shutter'), opts(SHUTTER_OPTIONS, (v) => (v.includes('/') ? `${v} s` : `${v} s`)))}
        {sel('awb', t('device.camera.awb'), WhiteBalance.options(lang))}
        <h4>{t('device.camera.image')}</h4>
        {sel('thermal_palette', t('device.camera.thermalPalette'), ThermalPalette.options(lang))}
        {sel('defog', t('device.camera.defog'), Defogging.options(lang))}
        {sel('grid', t('device.camera.grid'), GridType.options(lang))}
        {sel('preview_resolution', t('device.camera.previewResolution'), PreviewResolution.options(lang))}
        {sel('preview_bitrate', t('device.camera.previewBitrate'), PreviewBitrate.options(lang))}
        <h4>{t('device.camera.recording')}</h4>
        {sel('record_resolution', t('device.camera.recordResolution'), opts(RECORDING_RESOLUTION_OPTIONS))}
        {sel('record_bitrate', t('device.camera.recordBitrate'), opts(RECORDING_BITRATE_OPTIONS, (v) => `${v}bps`))}
      </Form>
      {patch && (
        <div className="camera-changed" data-testid="cam-changed">
          {t('device.camera.changed', { count: Object.keys(patch).length })}
        </div>
      )}
    </Drawer>
  );
}

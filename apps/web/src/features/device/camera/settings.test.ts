import { describe, expect, it } from 'vitest';
import { DEFAULT_CAMERA_SETTINGS, type DroneTelemetry } from '@nest/contracts';
import { changedSettings, reportedSettings } from './settings';

const camera = { camera_iso: 400, camera_shutter: '1/1000', camera_exp_mode: 1, camera_exp_value: 0.7, camera_awb: 2 };

describe('camera settings', () => {
  it('only the changed keys are sent', () => {
    const base = { ...DEFAULT_CAMERA_SETTINGS };
    expect(changedSettings(base, { iso: 100, grid: 3 })).toBeNull();
    expect(changedSettings(base, { iso: 800, grid: 3, photo_format: 'RAW' })).toEqual({ iso: 800, photo_format: 'RAW' });
    expect(changedSettings(base, {})).toBeNull();
  });

  it('values come from the device: a full reported set, else telemetry over the defaults', () => {
    expect(reportedSettings(undefined)).toEqual(DEFAULT_CAMERA_SETTINGS);
    const fromTelemetry = reportedSettings({ camera } as unknown as DroneTelemetry);
    expect(fromTelemetry).toMatchObject({ iso: 400, shutter: '1/1000', exp_mode: 1, exp_value: 0.7, awb: 2, grid: 3, photo_size: '20M' });
    const full = { ...DEFAULT_CAMERA_SETTINGS, record_resolution: '6K25', iso: 1600 };
    expect(reportedSettings({ camera } as unknown as DroneTelemetry, full)).toEqual(full);
  });

  it('a telemetry value outside the options falls back to the default for that key only', () => {
    const s = reportedSettings({ camera: { ...camera, camera_iso: 150 } } as unknown as DroneTelemetry);
    expect(s.iso).toBe(DEFAULT_CAMERA_SETTINGS.iso);
    expect(s.shutter).toBe('1/1000');
  });
});

import { describe, expect, it } from 'vitest';
import {
  ISO_OPTIONS,
  PHOTO_FORMAT_OPTIONS,
  PHOTO_SIZE_OPTIONS,
  RECORDING_BITRATE_OPTIONS,
  RECORDING_RESOLUTION_OPTIONS,
  SHUTTER_OPTIONS,
} from './constants.js';
import { DeviceTypeKey } from './enums.js';
import {
  AlternateError,
  AlternateReason,
  CmdType,
  CommandReason,
  ControlCmdType,
  DEFAULT_CAMERA_SETTINGS,
  DEVICE_TEXT,
  EXPOSURE_VALUE_OPTIONS,
  FLIGHT_ENUMS,
  FlowError,
  FlowStep,
  OneKeyError,
  Reason,
  TAKEOFF_STEPS,
  cameraSettingsPatch,
  cameraSettingsSchema,
  commandReasonText,
  controlCommandData,
  flowSteps,
  mediaUploadStart,
  missionPlanSchema,
  processControlData,
} from './flight.js';

describe('flight enumerations', () => {
  it.each(FLIGHT_ENUMS.map((e) => [e.name, e] as const))('%s has distinct values and distinct zh and en labels', (_n, e) => {
    const values = e.values();
    expect(new Set(values).size).toBe(values.length);
    for (const lang of ['zh', 'en'] as const) {
      const labels = e.entries.map((x) => x.label[lang].trim());
      expect(labels.every((l) => l !== '')).toBe(true);
      expect(new Set(labels).size).toBe(labels.length);
    }
    expect(e.entries.every((x) => x.label.zh !== x.label.en)).toBe(true);
  });

  it('numbers the catalogues of SPEC section 8 exactly', () => {
    expect(FlowError.values()).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(AlternateError.values()).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(OneKeyError.values()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(AlternateReason.values()).toEqual([1, 2, 3]);
  });

  it('has a text for every Reason constant and every cmd type constant', () => {
    for (const r of Object.values(Reason)) expect(CommandReason.has(r)).toBe(true);
    for (const c of Object.values(CmdType)) expect(ControlCmdType.has(c)).toBe(true);
    expect(commandReasonText(Reason.LOW_BATTERY, 'en')).toMatch(/50%/);
    // An unknown reason still reads as a refusal, never as a bare number.
    expect(commandReasonText(999, 'zh')).toBe(CommandReason.label(Reason.DEVICE_REFUSED, 'zh'));
  });

  it('words the device texts in both languages', () => {
    for (const t of Object.values(DEVICE_TEXT)) {
      expect(t.zh.trim()).not.toBe('');
      expect(t.en.trim()).not.toBe('');
      expect(t.zh).not.toBe(t.en);
    }
  });
});

describe('flow steps', () => {
  it('is the SPEC takeoff sequence for a fixed nest', () => {
    expect(flowSteps('takeoff', 'stable')).toEqual([...TAKEOFF_STEPS]);
    expect(TAKEOFF_STEPS[0]).toBe('drone_start');
    expect(TAKEOFF_STEPS.at(-1)).toBe('battery_load');
  });

  it('drops the platform for mini and mobile nests and every nest step for single drones', () => {
    for (const kind of ['takeoff', 'landing'] as const) {
      for (const type of ['stable_mini', 'mobile']) {
        const steps = flowSteps(kind, type);
        expect(steps).not.toContain('platform_rise');
        expect(steps).not.toContain('platform_lower');
        expect(steps).toContain('hatch_open');
      }
      const alone = flowSteps(kind, 'alone');
      expect(alone).not.toContain('hatch_open');
      expect(alone.length).toBeGreaterThan(0);
    }
    expect(flowSteps('takeoff', 'alone')).toEqual(['drone_start', 'route_upload', 'self_check', 'unlock', 'takeoff']);
  });

  it('labels every step of every variant', () => {
    for (const type of DeviceTypeKey.values()) {
      for (const kind of ['takeoff', 'landing', 'alternate'] as const) {
        for (const s of flowSteps(kind, type)) expect(FlowStep.has(s)).toBe(true);
      }
    }
  });
});

describe('camera settings', () => {
  it('defaults satisfy the schema (grid 3 by default)', () => {
    expect(cameraSettingsSchema.parse(DEFAULT_CAMERA_SETTINGS)).toEqual(DEFAULT_CAMERA_SETTINGS);
    expect(DEFAULT_CAMERA_SETTINGS.grid).toBe(3);
  });

  it('takes exactly the SPEC option lists', () => {
    expect(ISO_OPTIONS[0]).toBe(100);
    expect(ISO_OPTIONS.at(-1)).toBe(4800);
    expect(SHUTTER_OPTIONS[0]).toBe('2.0');
    expect(SHUTTER_OPTIONS.at(-1)).toBe('1/10000');
    expect(PHOTO_SIZE_OPTIONS[0]).toBe('8M');
    expect(PHOTO_SIZE_OPTIONS.at(-1)).toBe('41M');
    expect(PHOTO_FORMAT_OPTIONS).toEqual(['JPG', 'RAW', 'RAW&JPG']);
    expect(RECORDING_RESOLUTION_OPTIONS).toEqual(['4K25', '4K30', '4K60', '6K25']);
    expect(RECORDING_BITRATE_OPTIONS[0]).toBe('8M');
    expect(RECORDING_BITRATE_OPTIONS.at(-1)).toBe('64M');
    expect(EXPOSURE_VALUE_OPTIONS).toContain(0);
    expect(EXPOSURE_VALUE_OPTIONS[0]).toBe(-3);
    expect(EXPOSURE_VALUE_OPTIONS.at(-1)).toBe(3);
  });

  it('refuses values outside the options and empty patches', () => {
    expect(cameraSettingsPatch.safeParse({ iso: 150 }).success).toBe(false);
    expect(cameraSettingsPatch.safeParse({ shutter: '1/3' }).success).toBe(false);
    expect(cameraSettingsPatch.safeParse({ awb: 9 }).success).toBe(false);
    expect(cameraSettingsPatch.safeParse({ thermal_palette: 10 }).success).toBe(false);
    expect(cameraSettingsPatch.safeParse({ grid: 0 }).success).toBe(false);
    expect(cameraSettingsPatch.safeParse({}).success).toBe(false);
    expect(cameraSettingsPatch.safeParse({ iso: 4800, shutter: '1/10000', defog: 2 }).success).toBe(true);
  });
});

describe('push and link data', () => {
  it('reads a 401 with defaults and refuses stick values out of range', () => {
    expect(controlCommandData.parse({ sn_id: 'A', cmd_type: CmdType.RETURN })).toMatchObject({ action_cmd: 0, value: 0 });
    const stick = { roll: 1500, pitch: 2001, throttle: 1500, yaw: 1500 };
    expect(controlCommandData.safeParse({ sn_id: 'A', cmd_type: CmdType.STICK, sticks: stick }).success).toBe(false);
    expect(controlCommandData.safeParse({ sn_id: 'A', cmd_type: 99 }).success).toBe(false);
    expect(controlCommandData.safeParse({ sn_id: 'A', cmd_type: 1, cmd_id: 'bad id!' }).success).toBe(false);
  });

  it('reads a 473 only with control_cmd 1, 2 or 3', () => {
    expect(processControlData.safeParse({ sn_id: 'A', control_cmd: 2 }).success).toBe(true);
    expect(processControlData.safeParse({ sn_id: 'A', control_cmd: 4 }).success).toBe(false);
  });

  it('needs at least one waypoint in a mission plan and starts at 0 by default', () => {
    const plan = {
      mission_id: 'm',
      name: 'n',
      mission_type: 1,
      height_type: 0,
      auto_speed: 8,
      max_speed: 12,
      default_height: 80,
      return_height: 100,
      finish_action: 20,
      photo_type: 2,
      waypoints: [{ lat: 22.5, lng: 114, height: 80 }],
    };
    expect(missionPlanSchema.parse(plan).start_index).toBe(0);
    expect(missionPlanSchema.safeParse({ ...plan, waypoints: [] }).success).toBe(false);
  });

  it('refuses upload metadata with unsafe file names or a bad digest', () => {
    const ok = {
      media_id: 'abcdef12-3456',
      flight_id: null,
      type: 10,
      file_name: 'DJI_0001.jpg',
      mime: 'image/jpeg',
      size: 1000,
      sha256: 'a'.repeat(64),
      taken_at: 1,
      lat: 1,
      lng: 1,
      height: 50,
      waypoint_index: null,
      width: null,
      height_px: null,
      duration: null,
    };
    expect(mediaUploadStart.safeParse(ok).success).toBe(true);
    expect(mediaUploadStart.safeParse({ ...ok, file_name: '../etc/passwd' }).success).toBe(false);
    expect(mediaUploadStart.safeParse({ ...ok, sha256: 'xyz' }).success).toBe(false);
    expect(mediaUploadStart.safeParse({ ...ok, type: 30 }).success).toBe(false);
    expect(mediaUploadStart.safeParse({ ...ok, mime: 'text/html' }).success).toBe(false);
  });
});

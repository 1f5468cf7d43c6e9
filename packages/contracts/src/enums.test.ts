import { describe, expect, it } from 'vitest';
import {
  ALL_ENUMS,
  CameraType,
  DEFAULT_GRID_TYPE,
  DEVICE_KIND_OF_KEY,
  DeviceCategory,
  DeviceKind,
  DeviceTypeKey,
  FlightMode,
  GridType,
  NON_SELECTABLE_FLIGHT_MODES,
  NestActionTip,
  NestPart,
  NtripState,
  RtkStatus,
  TimedTaskState,
  nestActionText,
  selectableFlightModeOptions,
} from './enums.js';

const byName = new Map(ALL_ENUMS.map((e) => [e.name, e]));

describe('every enumeration', () => {
  it('has a unique name', () => {
    expect(byName.size).toBe(ALL_ENUMS.length);
  });

  it.each(ALL_ENUMS.map((e) => [e.name, e] as const))('%s has distinct values and labels in both languages', (_n, e) => {
    const values = e.values();
    expect(values.length).toBeGreaterThan(0);
    expect(new Set(values).size).toBe(values.length);
    for (const lang of ['zh', 'en'] as const) {
      const labels = e.entries.map((x) => x.label[lang]);
      for (const l of labels) expect(l.trim(), `${e.name} ${lang}`).not.toBe('');
      expect(new Set(labels).size, `${e.name} ${lang} labels`).toBe(labels.length);
    }
  });

  it.each(ALL_ENUMS.map((e) => [e.name, e] as const))('%s is translated (most labels differ between languages)', (_n, e) => {
    const differing = e.entries.filter((x) => x.label.zh !== x.label.en).length;
    expect(differing / e.entries.length).toBeGreaterThan(0.5);
    // Chinese labels carry Chinese text except for codes such as GPS / 1M / wk.
    const withHan = e.entries.filter((x) => /\p{Script=Han}/u.test(x.label.zh)).length;
    if (!['PreviewBitrate'].includes(e.name)) expect(withHan).toBeGreaterThan(0);
  });
});

/** Value sets the SPEC (section 4) gives, by enumeration name. */
const SPEC_VALUES: Record<string, readonly (number | string)[]> = {
  RecordState: [10, 20],
  DeviceTypeState: [10, 20, 30],
  OnlineStatus: [1, 2, 3],
  AlarmLevel: [30, 20, 10],
  AlarmProcessState: [10, 20],
  TimedTaskState: [1, 3, 10, 40, 41],
  TimedTaskDataState: [0, 10],
  AchievementType: [10, 15, 20],
  CheckingType: [10, 20, 30],
  FlightMode: [2, 3, 4, 5, 6, 9, 13],
  FlightState: [0, 1, 2, 3, 4, 8],
  RtkStatus: [0, 1, 2, 3, 4],
  NtripState: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  CalibrationItem: ['gyroscope', 'compass', 'acceleration'],
  Defogging: [0, 1, 2],
  GridType: [1, 2, 3],
  PreviewResolution: [1, 0],
  PreviewBitrate: [0, 1, 2],
  WhiteBalance: [0, 1, 2, 3, 4, 5, 6, 7, 8],
  ThermalPalette: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  DeviceTypeKey: ['stable', 'stable_mini', 'mobile', 'alone'],
  DeviceKind: [10, 100, 200],
  PlanState: [0, 1, 2],
  PictureMode: [1, 2, 3, 4],
  HeightType: [0, 1],
  FinishAction: [10, 20, 30, 40],
  ExecutionType: [0, 1],
  PhotoType: [1, 2, 3],
  LinkType: [1, 2, 3],
  VideoStream: [0, 1, 2, 3],
  RecordingVrType: [1, 2],
  NestActionTip: [3, 2],
  ProcessControlCommand: [1, 2, 3],
  Company: ['wk', 'gzGh', 'zrhk'],
};

describe('SPEC value sets', () => {
  it.each(Object.entries(SPEC_VALUES))('%s has exactly the SPEC values', (name, values) => {
    const e = byName.get(name);
    expect(e, name).toBeDefined();
    expect(e!.values()).toEqual(values);
  });

  it('uses the operator wording of a Chinese console', () => {
    expect(FlightMode.options('zh').map((o) => o.label)).toEqual(['姿态', '自动', '跟随', 'GPS', '返航', '降落', '运动']);
    expect(byName.get('FlightState')!.entries.map((x) => x.label.zh)).toEqual([
      '空闲', '起飞', '空中', '降落中', '地面', '返航中',
    ]);
    expect(RtkStatus.label(4, 'zh')).toBe('固定解');
    expect(RtkStatus.label(0, 'en')).toBe('Not connected');
    expect(NtripState.label(0, 'en')).toBe('Initial');
    expect(NtripState.label(11, 'en')).toBe('Network unavailable');
    expect(TimedTaskState.label(41, 'en')).toMatch(/offline/i);
  });
});

describe('enumeration helpers', () => {
  it('answers labels, membership and options', () => {
    expect(TimedTaskState.label(3, 'zh')).toBe('已暂停');
    expect(TimedTaskState.label('3', 'en')).toBe('3'); // values are typed: '3' is not 3
    expect(TimedTaskState.label(99, 'en')).toBe('99');
    expect(TimedTaskState.has(40)).toBe(true);
    expect(TimedTaskState.has(2)).toBe(false);
    expect(CameraType.options('en')).toEqual([
      { value: 'custom', label: 'Custom camera' },
      { value: '6k', label: '6K camera' },
      { value: 'dual_light', label: 'Dual-light camera' },
    ]);
  });

  it('keeps attitude mode out of the selectable flight modes', () => {
    expect(NON_SELECTABLE_FLIGHT_MODES.has(2)).toBe(true);
    const options = selectableFlightModeOptions('en');
    expect(options.map((o) => o.value)).toEqual([3, 4, 5, 6, 9, 13]);
  });

  it('defaults the grid to lines and center point', () => {
    expect(DEFAULT_GRID_TYPE).toBe(3);
    expect(GridType.has(DEFAULT_GRID_TYPE)).toBe(true);
  });

  it('relates device categories, type keys and kind codes', () => {
    expect(DeviceCategory.values().slice().sort()).toEqual(DeviceTypeKey.values().slice().sort());
    for (const key of DeviceTypeKey.values()) {
      expect(DeviceKind.has(DEVICE_KIND_OF_KEY[key])).toBe(true);
    }
    expect(DEVICE_KIND_OF_KEY.alone).toBe(200);
    expect(DEVICE_KIND_OF_KEY.mobile).toBe(100);
    expect(DeviceCategory.label('stable_mini', 'en')).toBe('Fixed small airport');
  });

  it('words nest action tips for every part and code', () => {
    expect(nestActionText(3, 'hatch', 'en')).toBe('Opening the hatch');
    expect(nestActionText(2, 'hatch', 'zh')).toBe('舱门关闭中');
    const texts = new Set<string>();
    for (const part of NestPart.values()) {
      for (const code of NestActionTip.values()) {
        for (const lang of ['zh', 'en'] as const) texts.add(nestActionText(code, part, lang));
      }
    }
    expect(texts.size).toBe(NestPart.values().length * NestActionTip.values().length * 2);
    expect(nestActionText(9, 'hatch', 'en')).toBe('9 Hatch');
  });
});

import { DEVICE_TEXT, type Lang, type Text } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

/** Refusals and outcome texts of device maintenance, in both console languages. */
const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;
const of =
  (t: Text): Message =>
  (lang: Lang) =>
    t[lang];

export const MAINT_TEXTS = {
  noDevice: both('设备不存在或无权操作', 'The device does not exist or is not yours'),
  noFirmware: both('固件不存在或已停用', 'The firmware package does not exist or is disabled'),
  notNestFirmware: both('该固件不适用于此设备', 'This firmware package is not for this device'),
  firmwareOffline: of(DEVICE_TEXT.firmwareOffline),
  firmwareOnMission: of(DEVICE_TEXT.firmwareOnMission),
  offline: of(DEVICE_TEXT.offline),
  flying: both('飞机在空中或正在执行任务，无法操作', 'The drone is in the air or on a mission: not now'),
  running: (kind: Text): Message => both(`该设备的${kind.zh}正在进行中`, `A ${kind.en.toLowerCase()} of this device is already running`),
  azimuthTimeout: of(DEVICE_TEXT.azimuthTimeout),
  beaconTimeout: of(DEVICE_TEXT.beaconTimeout),
  noLogs: both('单兵无人机没有机场日志', 'A single-soldier drone has no nest log'),
} as const;

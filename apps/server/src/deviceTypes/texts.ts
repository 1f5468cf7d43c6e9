import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

/** Refusals of the device-type catalogue, in both console languages. */
export const DEVICE_TYPE_TEXTS = {
  notFound: both('设备类型不存在或已删除', 'The device type does not exist or was deleted'),
  taken: (value: string): Message =>
    both(`该类别下已有键值为「${value}」的设备类型`, `This kind already has a device type with the key "${value}"`),
} as const;

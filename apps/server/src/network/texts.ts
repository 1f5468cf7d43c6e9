import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

/** Refusals of the device network and navigation environment calls, in both console languages. */
export const NETWORK_TEXTS = {
  noDevice: both('设备不存在或无权查看', 'The device does not exist or is not yours'),
} as const;

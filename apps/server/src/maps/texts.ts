import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

/** Refusals of the offline map download calls, in both console languages. */
export const MAP_TEXTS = {
  tooMany: (count: number, max: number): Message =>
    both(
      `所选区域和层级共 ${count} 个瓦片，超过单次下载上限 ${max}：请缩小区域或降低最大层级`,
      `The area and zoom range cover ${count} tiles, more than the limit of ${max} per download: choose a smaller area or a lower maximum zoom`,
    ),
  busy: (max: number): Message =>
    both(`已有 ${max} 个下载任务未完成，请等待其结束或取消后再试`, `${max} downloads are still unfinished: wait for one to end or cancel one first`),
  noJob: both('下载任务不存在', 'The download job does not exist'),
  ended: both('该下载任务已结束，无法取消', 'The download job has ended and cannot be cancelled'),
} as const;

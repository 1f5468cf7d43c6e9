import { MAP_PACKAGE_TEXTS, type Lang, type MapPackageProblem } from '@nest/contracts';
import type { Message } from '../../calls/errors.js';

/** A refusal of a package upload, in the caller's language (texts in contracts MAP_PACKAGE_TEXTS). */
export const problemText =
  (p: MapPackageProblem): Message =>
  (lang: Lang) =>
    MAP_PACKAGE_TEXTS[p][lang];

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

export const PACKAGE_TEXTS = {
  notFound: both('离线地图包不存在或已删除', 'The offline map package does not exist or was deleted'),
} as const;

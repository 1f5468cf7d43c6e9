import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

/** Refusals of the teaching-video calls, in both console languages. */
export const TEACHING_TEXTS = {
  noFile: both('请选择一个视频文件（MP4 或 WebM）', 'Choose one video file (MP4 or WebM)'),
  wrongName: both('视频文件必须是 .mp4 或 .webm 文件', 'The video must be an .mp4 or .webm file'),
  notVideo: both('文件内容不是 MP4 或 WebM 视频', 'The file content is not an MP4 or WebM video'),
  notFound: both('教学视频不存在或已删除', 'The teaching video does not exist or was deleted'),
  everyKind: both('通用', 'All kinds'),
} as const;

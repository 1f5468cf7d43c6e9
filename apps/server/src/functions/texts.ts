import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

/** Refusals of the function calls, in both console languages. */
const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

export const FUNCTION_TEXTS = {
  taken: (id: string) => both(`功能标识 ${id} 已存在`, `The function id ${id} already exists`),
  notFound: (id: string) => both(`功能 ${id} 不存在`, `The function ${id} does not exist`),
  keepSuper: both('超级管理员功能不能删除', 'The super administrator function cannot be deleted'),
} as const;

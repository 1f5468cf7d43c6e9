import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

/** Refusals of the department calls, in both console languages. */
const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const DEPARTMENT_TEXTS = {
  notFound: both('部门不存在', 'The department does not exist'),
  noParent: both('上级部门不存在，或不属于同一公司', 'The parent department does not exist in the same company'),
  cycle: both('不能把部门移动到它自己或它的下级部门之下', 'A department cannot be moved under itself or one of its sub-departments'),
  nameTaken: (name: string) =>
    both(`同一上级下已有名为“${name}”的部门`, `Another department under the same parent is already named "${name}"`),
  notEmpty: (users: number, children: number) =>
    both(
      `该部门还有 ${users} 名用户和 ${children} 个下级部门，请先移走或删除它们`,
      `The department still has ${plural(users, 'user', 'users')} and ${plural(children, 'sub-department', 'sub-departments')}: move or delete them first`,
    ),
  alreadyDeleted: both('该部门已被删除', 'This department is already deleted'),
} as const;

import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

/** Refusals of the user-management calls, in both console languages. */
const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

export const USER_TEXTS = {
  validity: both('结束时间必须晚于开始时间', 'The end time must be after the start time'),
  noDepartment: both('所选部门不存在或不属于该公司', 'The department does not exist in this company'),
  inactiveFunction: (fun: string) => both(`功能 ${fun} 已删除，不能分配`, `The function ${fun} is deleted and cannot be granted`),
  notSelf: both('不能删除自己的账号', 'You cannot delete your own account'),
  lastSuper: both(
    '这是最后一位有效的超级管理员，不能删除或取消其超级管理员功能',
    'This is the last active super administrator: it cannot be deleted or lose that function',
  ),
  notDeleted: both('该用户未被删除', 'This user is not deleted'),
  alreadyDeleted: both('该用户已被删除', 'This user is already deleted'),
} as const;

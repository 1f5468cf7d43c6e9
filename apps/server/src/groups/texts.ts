import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

/** Refusals of collaboration-group calls, in both console languages. */
const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

export const GROUP_TEXTS = {
  noGroup: both('协同分组不存在', 'The collaboration group does not exist'),
  noDevice: (sn: string) => both(`设备 ${sn} 不存在或不属于本公司`, `Device ${sn} does not exist or is not your company's`),
  mixedCompanies: both('一个协同分组只能包含同一公司的设备', "A collaboration group shares one company's devices only"),
  otherCompany: both('设备须属于该分组所属公司', "The devices must belong to the group's company"),
  noUser: (id: string) => both(`成员 ${id} 不存在或已停用`, `Member ${id} does not exist or is disabled`),
  nameTaken: (name: string) => both(`协同分组名称「${name}」已存在`, `A collaboration group named "${name}" exists already`),
} as const;

import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';
import type { PackageProblem } from './files.js';

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

/** Refusals of the firmware calls, in both console languages. */
export const FIRMWARE_TEXTS = {
  noFile: both('请选择一个固件文件（.wkimg）', 'Choose one firmware file (.wkimg)'),
  wrongName: both('固件文件必须是 .wkimg 文件', 'The firmware file must be a .wkimg file'),
  notFound: both('固件不存在或已删除', 'The firmware package does not exist or was deleted'),
  taken: (type: number, code: number): Message =>
    both(`类型 ${type} 的版本号 ${code} 已有固件`, `Type ${type} already has a package with version code ${code}`),
  typeMismatch: (inFile: number, inForm: number): Message =>
    both(`文件中的固件类型为 ${inFile}，与所选类型 ${inForm} 不一致`, `The file is firmware type ${inFile}, not the chosen type ${inForm}`),
  versionMismatch: (inFile: number, inForm: number): Message =>
    both(`文件中的版本号为 ${inFile}，与填写的版本号 ${inForm} 不一致`, `The file has version code ${inFile}, not the entered ${inForm}`),
} as const;

const PROBLEM_TEXTS: Readonly<Record<PackageProblem, Message>> = {
  magic: both('不是 .wkimg 固件包（文件头不符）', 'Not a .wkimg firmware package (wrong file start)'),
  header: both('固件包头部损坏', 'The firmware package header is damaged'),
  size: both('固件包长度与头部不符（文件不完整或有多余数据）', 'The package length does not match its header (incomplete or extra data)'),
  digest: both('固件内容校验失败（SHA-256 不符）', 'The firmware content fails its check (SHA-256 mismatch)'),
};

export const problemText = (p: PackageProblem): Message => PROBLEM_TEXTS[p];

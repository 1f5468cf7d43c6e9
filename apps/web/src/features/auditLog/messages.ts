import type { AuditKind } from '@nest/contracts';

/**
 * Texts of the security audit screen (merged into the catalogs under `auditLog`). Both languages with the
 * same keys: the English object is typed by the Chinese one, and the catalog test compares them.
 */
/** Catalog keys are camelCase paths: `login_failed` is labelled under `kind.loginFailed`. */
type Camel<S extends string> = S extends `${infer A}_${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
export type AuditKindKey = Camel<AuditKind>;
export const auditKindKey = (k: AuditKind): AuditKindKey => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as AuditKindKey;

const kindZh: Record<AuditKindKey, string> = {
  login: '登录成功',
  loginFailed: '登录失败',
  loginLocked: '登录锁定',
  logout: '退出登录',
  passwordChange: '修改密码',
  userAdd: '新增用户',
  userEdit: '修改用户权限',
  userDelete: '删除用户',
  userRecover: '恢复用户',
  funAdd: '新增功能',
  funEdit: '编辑功能',
  funDelete: '删除功能',
  groupMembers: '协同分组成员',
  deviceCommand: '设备指令',
  deviceAdd: '新增设备',
  deviceDelete: '删除设备',
  deviceEnable: '启用设备',
  deviceDisable: '停用设备',
};

const kindEn: Record<AuditKindKey, string> = {
  login: 'Signed in',
  loginFailed: 'Sign-in failed',
  loginLocked: 'Sign-in locked',
  logout: 'Signed out',
  passwordChange: 'Password changed',
  userAdd: 'User added',
  userEdit: 'User access changed',
  userDelete: 'User deleted',
  userRecover: 'User recovered',
  funAdd: 'Function added',
  funEdit: 'Function edited',
  funDelete: 'Function deleted',
  groupMembers: 'Group membership',
  deviceCommand: 'Device command',
  deviceAdd: 'Device added',
  deviceDelete: 'Device deleted',
  deviceEnable: 'Device enabled',
  deviceDisable: 'Device disabled',
};

export const auditLogZh = {
  title: '安全审计',
  hint: '记录登录、权限变更、设备指令与设备管理等安全事件；审计记录保留 {days} 天。',
  searchPlaceholder: '账号或用户名',
  allKinds: '全部类型',
  empty: '暂无审计记录',
  col: {
    at: '时间',
    kind: '事件',
    actor: '操作人',
    account: '账号',
    target: '对象',
    outcome: '结果',
    ip: 'IP 地址',
    detail: '详情',
  },
  outcome: { ok: '成功', refused: '拒绝' },
  unknownActor: '未登录',
  kind: kindZh,
};

export const auditLogEn: typeof auditLogZh = {
  title: 'Security audit',
  hint: 'Sign-ins, access changes, device commands and device administration. Audit records are kept for {days} days.',
  searchPlaceholder: 'Account or user name',
  allKinds: 'All events',
  empty: 'No audit records',
  col: {
    at: 'Time',
    kind: 'Event',
    actor: 'By',
    account: 'Account',
    target: 'Object',
    outcome: 'Outcome',
    ip: 'IP address',
    detail: 'Detail',
  },
  outcome: { ok: 'Done', refused: 'Refused' },
  unknownActor: 'Not signed in',
  kind: kindEn,
};

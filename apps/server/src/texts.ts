import { PASSWORD_MAX, PASSWORD_MIN, showText, type Lang, type Text } from '@nest/contracts';

/**
 * Server-side user-visible texts that are not result-code texts (those live in contracts CODE_TEXT).
 * Keyed `feature.area.item`; both languages are required by the type, so the catalogs cannot drift.
 * `{name}` placeholders are filled by `say`.
 */
export const TEXTS = {
  'calls.field.required': { zh: '字段 {field} 不能为空', en: 'Field {field} is required' },
  'calls.field.invalid': { zh: '字段 {field} 格式不正确', en: 'Field {field} is invalid' },
  'calls.field.tooLong': { zh: '字段 {field} 过长', en: 'Field {field} is too long' },
  'calls.field.repeated': { zh: '字段 {field} 重复出现', en: 'Field {field} appears more than once' },
  'calls.field.notText': { zh: '字段 {field} 必须是文本', en: 'Field {field} must be text' },
  /** SPEC account rule: mainland mobile number or e-mail address. */
  'calls.field.account': { zh: '请输入正确的手机号/邮箱', en: 'Please enter a valid phone number or e-mail' },
  'users.password.length': {
    zh: `密码长度应为 ${PASSWORD_MIN} 到 ${PASSWORD_MAX} 个字符`,
    en: `The password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
  },
  'users.edit.company': { zh: '公司不存在', en: 'The company does not exist' },
  'users.edit.function': { zh: '功能 {fun} 不存在', en: 'The function {fun} does not exist' },
  'push.frame.tooLarge': { zh: '推送消息过大', en: 'The push message is too large' },
  'push.frame.malformed': { zh: '推送消息格式不正确', en: 'The push message is malformed' },
  'push.msg.unknown': { zh: '未知的消息类型 {msg_id}', en: 'Unknown message type {msg_id}' },
  'push.licence.invalid': { zh: '授权校验失败', en: 'The licence is invalid' },
  'push.session.ended': {
    zh: '登录已失效（已退出、账号或权限已变更），请重新登录',
    en: 'Your session has ended (signed out, or the account or its permissions changed); please sign in again',
  },
  'push.verify.timeout': {
    zh: '连接未在规定时间内完成用户校验，已断开',
    en: 'The connection did not verify its user in time and was closed',
  },
  'devices.connect.busy': {
    zh: '设备已被 {nick} 连接，请稍后再试',
    en: 'The device is connected by {nick}; please try again later',
  },
  'devices.list.type': {
    zh: '设备类型筛选只能是 0（全部）、10、100 或 200',
    en: 'The device type filter must be 0 (all), 10, 100 or 200',
  },
} as const satisfies Record<string, Text>;

export type TextKey = keyof typeof TEXTS;

/** A text in `lang`; a parameter that is a demo name (a holder's nick, say) is put in as `lang` shows it. */
export function say(key: TextKey, lang: Lang, params: Readonly<Record<string, string | number>> = {}): string {
  return TEXTS[key][lang].replace(/\{(\w+)\}/g, (m, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? showText(String(params[name]), lang) : m,
  );
}

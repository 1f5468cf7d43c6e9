import type { Lang, Text } from './i18n.js';

/**
 * Result codes of the `{code, msg, data}` envelope (SPEC section 8) and the HTTP status that carries each.
 * Success codes are 2000, 2201 and 44020 (44020: success that the client does not announce).
 */
export const ResultCode = {
  OK: 2000,
  OK_CREATED: 2201,
  OK_QUIET: 44020,
  /** Push reply: a device/process command failed (SPEC: msg_id 473 and 401 failures). */
  PUSH_FAILED: 2002,
  BAD_REQUEST: 40001,
  BAD_SIGNATURE: 40002,
  STALE_TIMESTAMP: 40003,
  UNSUPPORTED_MEDIA: 40004,
  PAYLOAD_TOO_LARGE: 40005,
  /** Too many file uploads in progress (the caller's own, or the server's): try again once one ends. */
  UPLOAD_BUSY: 40006,
  /** A new password is among the most common ones (checked by hash; the forms show it on the password field). */
  PASSWORD_COMMON: 40007,
  LOGIN_FAILED: 40010,
  LOGIN_THROTTLED: 40011,
  ACCOUNT_NOT_YET_VALID: 40012,
  ACCOUNT_EXPIRED: 40013,
  ACCOUNT_DISABLED: 40014,
  WRONG_OLD_PASSWORD: 40015,
  DECRYPT_FAILED: 40016,
  ACCOUNT_TAKEN: 40017,
  NOT_FOUND_OBJECT: 40018,
  NOT_IMPLEMENTED: 40019,
  /** The device is not online (device link presence / telemetry). */
  DEVICE_OFFLINE: 40030,
  /** Someone else holds the device's control connection (/device/connect). */
  DEVICE_BUSY: 40031,
  /** The device is disabled and cannot be operated. */
  DEVICE_DISABLED: 40032,
  /** The device did not answer a command in time (after the re-sends). */
  DEVICE_NO_ANSWER: 40033,
  NO_PERMISSION: 40100,
  LOGIN_EXPIRED: 40263,
  NO_SUCH_CALL: 40400,
  PUSH_NOT_ALIVE: 46010,
  SERVER_ERROR: 50000,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

export const SUCCESS_CODES: readonly number[] = [ResultCode.OK, ResultCode.OK_CREATED, ResultCode.OK_QUIET];
export const isSuccess = (code: number): boolean => SUCCESS_CODES.includes(code);

/** HTTP status for each failure code; everything not listed travels with HTTP 200. */
export const HTTP_STATUS_OF: Readonly<Partial<Record<number, number>>> = {
  [ResultCode.NO_PERMISSION]: 401,
  [ResultCode.NO_SUCH_CALL]: 404,
  [ResultCode.SERVER_ERROR]: 500,
  [ResultCode.PAYLOAD_TOO_LARGE]: 413,
  [ResultCode.UNSUPPORTED_MEDIA]: 415,
  [ResultCode.UPLOAD_BUSY]: 429,
};

export const CODE_TEXT: Readonly<Record<ResultCode, Text>> = {
  [ResultCode.OK]: { zh: '操作成功', en: 'Success' },
  [ResultCode.OK_CREATED]: { zh: '创建成功', en: 'Created' },
  [ResultCode.OK_QUIET]: { zh: '成功', en: 'Done' },
  [ResultCode.PUSH_FAILED]: { zh: '操作失败', en: 'Operation failed' },
  [ResultCode.BAD_REQUEST]: { zh: '请求参数有误', en: 'Invalid request parameters' },
  [ResultCode.BAD_SIGNATURE]: { zh: '请求签名校验失败', en: 'Request signature is invalid' },
  [ResultCode.STALE_TIMESTAMP]: {
    zh: '请求时间戳已过期，请检查本机时间',
    en: 'Request timestamp is out of range; check this computer’s clock',
  },
  [ResultCode.UNSUPPORTED_MEDIA]: { zh: '不支持的请求格式', en: 'Unsupported request format' },
  [ResultCode.PAYLOAD_TOO_LARGE]: { zh: '请求内容过大', en: 'Request is too large' },
  [ResultCode.UPLOAD_BUSY]: { zh: '正在进行的上传过多，请稍后再试', en: 'Too many uploads in progress; please try again later' },
  [ResultCode.PASSWORD_COMMON]: { zh: '该密码过于常见，容易被猜中，请换一个', en: 'This password is too common and easy to guess; choose another one' },
  [ResultCode.LOGIN_FAILED]: { zh: '账号或密码错误', en: 'Wrong account or password' },
  [ResultCode.LOGIN_THROTTLED]: {
    zh: '登录失败次数过多，请稍后再试',
    en: 'Too many failed sign-ins; please try again later',
  },
  [ResultCode.ACCOUNT_NOT_YET_VALID]: { zh: '账号尚未到有效期', en: 'This account is not valid yet' },
  [ResultCode.ACCOUNT_EXPIRED]: { zh: '账号已过有效期', en: 'This account has expired' },
  [ResultCode.ACCOUNT_DISABLED]: { zh: '账号已被停用', en: 'This account is disabled' },
  [ResultCode.WRONG_OLD_PASSWORD]: { zh: '原密码错误', en: 'The old password is wrong' },
  [ResultCode.DECRYPT_FAILED]: {
    zh: '密码数据无法解密，请刷新页面后重试',
    en: 'The password could not be decrypted; reload the page and try again',
  },
  [ResultCode.ACCOUNT_TAKEN]: { zh: '该账号已被使用', en: 'This account is already in use' },
  [ResultCode.NOT_FOUND_OBJECT]: { zh: '数据不存在', en: 'The record does not exist' },
  [ResultCode.NOT_IMPLEMENTED]: { zh: '该功能尚未开放', en: 'This function is not available yet' },
  [ResultCode.DEVICE_OFFLINE]: { zh: '设备不在线', en: 'The device is offline' },
  [ResultCode.DEVICE_BUSY]: {
    zh: '设备已被他人连接，请稍后再试',
    en: 'The device is connected by someone else; please try again later',
  },
  [ResultCode.DEVICE_DISABLED]: { zh: '设备已停用，无法操作', en: 'The device is disabled and cannot be operated' },
  [ResultCode.DEVICE_NO_ANSWER]: { zh: '设备未响应，请稍后再试', en: 'The device did not answer; please try again later' },
  [ResultCode.NO_PERMISSION]: { zh: '没有权限访问', en: 'No permission to access' },
  [ResultCode.LOGIN_EXPIRED]: { zh: '登录已过期，请重新登录', en: 'Login has expired, please log in again' },
  [ResultCode.NO_SUCH_CALL]: { zh: '接口不存在', en: 'Interface does not exist' },
  [ResultCode.PUSH_NOT_ALIVE]: { zh: '推送连接已失效', en: 'The push connection is no longer valid' },
  [ResultCode.SERVER_ERROR]: {
    zh: '服务器错误，请联系管理员',
    en: 'Server error, please contact the administrator',
  },
};

export function codeText(code: number, lang: Lang): string {
  const t = (CODE_TEXT as Record<number, Text | undefined>)[code];
  return t ? t[lang] : CODE_TEXT[ResultCode.SERVER_ERROR][lang];
}

/** Texts the client shows for HTTP failures (SPEC section 8). */
export const HTTP_TEXT: Readonly<Record<404 | 401 | 500, Text>> = {
  404: CODE_TEXT[ResultCode.NO_SUCH_CALL],
  401: CODE_TEXT[ResultCode.NO_PERMISSION],
  500: CODE_TEXT[ResultCode.SERVER_ERROR],
};

/** The envelope every call answers with. */
export interface Envelope<D = unknown> {
  code: number;
  msg: string;
  data: D;
}

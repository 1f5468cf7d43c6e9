import type { Lang, Text } from './i18n.js';

/**
 * Texts of push failures the client shows (SPEC section 8). A failed reply with code 2002 to
 * msg_id 473 (process control) names the command that failed by its `control_cmd`.
 */
export const PROCESS_CONTROL_FAILED_TEXT: Readonly<Record<1 | 2 | 3, Text>> = {
  1: { zh: '流程暂停失败', en: 'Process pause failed' },
  2: { zh: '流程继续失败', en: 'Process continuation failed' },
  3: { zh: '流程终止失败', en: 'Process termination failed' },
};

/** The text for a failed process-control command, or null for an unknown control_cmd. */
export function processControlFailedText(controlCmd: unknown, lang: Lang): string | null {
  const t = (PROCESS_CONTROL_FAILED_TEXT as Record<number, Text | undefined>)[Number(controlCmd)];
  return t ? t[lang] : null;
}

/** Errors of the push connection itself. */
export const PUSH_TEXT = {
  notSupported: { zh: '当前浏览器不支持 WebSocket 推送连接', en: 'This browser does not support WebSocket push connections' },
  closed: { zh: '推送连接已关闭', en: 'The connection has been closed' },
} as const satisfies Record<string, Text>;

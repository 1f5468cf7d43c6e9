import {
  OneKeyError,
  ProcessRefusal,
  Reason,
  ResultCode,
  commandReasonText,
  flightReplyOutput,
  processControlFailedText,
  type CommandOutcomeKindValue,
  type CommandReplyData,
  type CommandReplyPush,
  type Lang,
  type PreflightCheck,
} from '@nest/contracts';
import type { CommandAnswer } from './types.js';

/** The verdict of one command, before it is worded for a language. */
export interface Verdict {
  outcome: CommandOutcomeKindValue;
  /** CommandReason (0 when ok). */
  reason: number;
  one_key_error?: number | null;
  refusal?: number | null;
  checks?: PreflightCheck[];
  flight_id?: string | null;
}

export const OK: Verdict = { outcome: 'ok', reason: 0 };
/** A refusal before sending; an offline device is reported as outcome `offline` (the same as at the link). */
export const refused = (reason: number, checks?: PreflightCheck[]): Verdict => ({
  outcome: reason === Reason.OFFLINE ? 'offline' : 'refused',
  reason,
  ...(checks ? { checks } : {}),
});

/**
 * One-key errors as CommandReasons: the console looks cmd_type 8 refusals up by `reason`, so a device's
 * one-key error must land on the nearest CommandReason (the exact OneKeyError is in the reply too).
 */
const ONE_KEY_REASON: Record<number, number> = {
  0: Reason.DEVICE_REFUSED,
  1: Reason.BUSY,
  2: Reason.STATE,
  3: Reason.STATE,
  4: Reason.STATE,
  5: Reason.LOW_BATTERY,
  6: Reason.DEVICE_REFUSED,
};
const DEVICE_BAD_REQUEST = 3;

/** A device's refusal (reply result != 0) as a verdict: one-key error, process refusal or CommandReason. */
export function deviceRefusal(reply: CommandReplyData): Verdict {
  const out = flightReplyOutput.safeParse(reply.output ?? {});
  const o = out.success ? out.data : {};
  if (o.one_key_error !== undefined) {
    return { outcome: 'rejected', reason: ONE_KEY_REASON[o.one_key_error] ?? Reason.DEVICE_REFUSED, one_key_error: o.one_key_error };
  }
  if (o.refusal !== undefined) return { outcome: 'rejected', reason: Reason.DEVICE_REFUSED, refusal: o.refusal };
  if (o.reason !== undefined) return { outcome: 'rejected', reason: o.reason };
  return { outcome: 'rejected', reason: reply.result === DEVICE_BAD_REQUEST ? Reason.BAD_VALUE : Reason.DEVICE_REFUSED };
}

/** The reason text of a failed verdict: the most precise text there is. */
export function verdictText(v: Verdict, lang: Lang): string {
  if (v.outcome === 'ok') return '';
  if (v.one_key_error !== null && v.one_key_error !== undefined && OneKeyError.has(v.one_key_error)) return OneKeyError.label(v.one_key_error, lang);
  if (v.refusal !== null && v.refusal !== undefined && ProcessRefusal.has(v.refusal)) return ProcessRefusal.label(v.refusal, lang);
  return commandReasonText(v.reason, lang);
}

export interface ReplyHead {
  sn_id: string;
  cmd_id: string;
  cmd_type?: number;
  action_cmd?: number;
  control_cmd?: number;
}

/**
 * The push reply of a command: 2000 with outcome ok, else 2002 with the text. Replies to 473 say which
 * control failed first ("Pause failed: ...", contracts processControlFailedText).
 */
export function answerOf(head: ReplyHead, v: Verdict, lang: Lang): CommandAnswer {
  const data: CommandReplyPush = {
    ...head,
    outcome: v.outcome,
    reason: v.reason,
    ...(v.refusal !== undefined ? { refusal: v.refusal } : {}),
    ...(v.one_key_error !== undefined ? { one_key_error: v.one_key_error } : {}),
    ...(v.checks ? { checks: v.checks } : {}),
    ...(v.flight_id !== undefined ? { flight_id: v.flight_id } : {}),
  };
  if (v.outcome === 'ok') return { code: ResultCode.OK, msg: '', data };
  let msg = verdictText(v, lang);
  if (head.control_cmd !== undefined) {
    const head473 = processControlFailedText(head.control_cmd, lang);
    if (head473) msg = `${head473}${lang === 'zh' ? '：' : ': '}${msg}`;
  }
  return { code: ResultCode.PUSH_FAILED, msg, data };
}

/** The audit `detail` of a verdict: machine-readable keys a stored answer is rebuilt from, then words. */
export function detailOf(v: Verdict, extra = ''): string {
  const parts: string[] = [];
  if (v.one_key_error !== null && v.one_key_error !== undefined) parts.push(`one_key_error=${v.one_key_error}`);
  if (v.refusal !== null && v.refusal !== undefined) parts.push(`refusal=${v.refusal}`);
  if (v.checks) parts.push(`failed=${v.checks.filter((c) => !c.ok).map((c) => c.item).join(',')}`);
  if (extra) parts.push(extra);
  return parts.join('; ').slice(0, 500);
}

/** Rebuilds the verdict of a stored command (a repeated cmd_id is answered from the log). */
export function verdictOfRow(row: { outcome: string; reason: number; detail: string; flight_id: string | null }): Verdict {
  const num = (key: string) => {
    const m = new RegExp(`${key}=(\\d+)`).exec(row.detail);
    return m ? Number(m[1]) : undefined;
  };
  const v: Verdict = { outcome: row.outcome as CommandOutcomeKindValue, reason: Number(row.reason) };
  const oke = num('one_key_error');
  const refusal = num('refusal');
  if (oke !== undefined) v.one_key_error = oke;
  if (refusal !== undefined) v.refusal = refusal;
  if (row.flight_id) v.flight_id = row.flight_id;
  if (v.outcome === 'pending') v.reason = Reason.IN_PROGRESS;
  return v;
}

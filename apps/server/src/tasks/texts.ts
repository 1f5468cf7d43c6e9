import { textsOf, type Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';
import { verdictText, type Verdict } from '../flight/api.js';

/** Refusals and outcome texts of timed tasks, in both console languages. */
const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

export const TASK_TEXTS = {
  noMission: both('航线不存在或无权使用', 'The route does not exist or is not yours'),
  wrongDevice: both('该航线不属于所选设备的围栏', "The route does not belong to the selected device's fence"),
  noDevice: both('设备不存在或无权使用', 'The device does not exist or is not yours'),
  noTask: both('定时任务不存在', 'The timed task does not exist'),
  past: both('执行时间已过，请选择将来的时间', 'The run time has passed: choose a time in the future'),
  /** `title` as stored: a demo route name is quoted in each language's form. */
  clash: (title: string, zh: string, en: string): Message =>
    both(
      `与该设备的定时任务「${textsOf(title).zh}」（${zh}）执行时间间隔不足 30 分钟`,
      `Less than 30 minutes from this device's timed task "${textsOf(title).en}" (${en})`,
    ),
} as const;

/**
 * Stored outcomes (`last_outcome`) are language-neutral keys, localised when listed (outcomeText):
 * - 'sent', 'missed': the server's own outcomes;
 * - 'reply:<outcome>:<reason>[:<one_key_error>][|{"zh":…,"en":…}]': a refused / failed launch (CommandReason,
 *   OneKeyError), and what the refusal names (replyOutcome);
 * - 'error:<message>': the launch threw (an internal message, not translated).
 * Rows written before these keys hold the reply text as it came (Chinese); they are shown as stored.
 */
export const OUTCOME_MISSED = 'missed';
export const OUTCOME_SENT = 'sent';
const REPLY_PREFIX = 'reply:';
const ERROR_PREFIX = 'error:';

/** Longest text kept of what a refusal names (it goes into last_outcome, at most 500 characters). */
const NAMED_MAX = 200;

/**
 * A refused or failed launch; `named` is what the refusal names in both languages (the no-fly zone the route
 * enters, with its reason), kept after a `|` as JSON so either language can show it later.
 */
export const replyOutcome = (outcome: string, reason: number, oneKeyError?: number | null, named?: { zh: string; en: string } | null): string =>
  `${REPLY_PREFIX}${outcome}:${reason}${oneKeyError !== null && oneKeyError !== undefined ? `:${oneKeyError}` : ''}${
    named ? `|${JSON.stringify({ zh: named.zh.slice(0, NAMED_MAX), en: named.en.slice(0, NAMED_MAX) })}` : ''
  }`;
export const errorOutcome = (message: string): string => `${ERROR_PREFIX}${message}`;

const OUTCOME_KINDS = new Set(['ok', 'refused', 'rejected', 'timeout', 'offline', 'pending']);

/** The outcome for display in the caller's language (old free-text rows as stored). */
export function outcomeText(outcome: string, lang: Lang): string {
  if (outcome === OUTCOME_MISSED) {
    return both('错过执行时间（服务器当时未运行），未起飞', 'Missed: the server was not running at the time, not flown')(lang);
  }
  if (outcome === OUTCOME_SENT) return both('已下发', 'Sent')(lang);
  if (outcome.startsWith(ERROR_PREFIX)) return `${both('下发出错', 'Send error')(lang)}: ${outcome.slice(ERROR_PREFIX.length)}`;
  const m = /^reply:([a-z]+):(\d+)(?::(\d+))?(?:\|(.*))?$/s.exec(outcome);
  if (m && OUTCOME_KINDS.has(m[1]!)) {
    const verdict = { outcome: m[1] as Verdict['outcome'], reason: Number(m[2]), one_key_error: m[3] === undefined ? null : Number(m[3]) };
    const text = verdictText(verdict, lang);
    const named = m[4] === undefined ? null : namedOf(m[4]);
    return named ? `${text}${lang === 'zh' ? '：' : ': '}${named[lang]}` : text;
  }
  return outcome;
}

/** What a stored refusal names, or null when the kept JSON is not that (cut short, or written by hand). */
function namedOf(json: string): { zh: string; en: string } | null {
  try {
    const v: unknown = JSON.parse(json);
    if (v && typeof v === 'object' && typeof (v as { zh?: unknown }).zh === 'string' && typeof (v as { en?: unknown }).en === 'string') {
      return v as { zh: string; en: string };
    }
  } catch {
    // Shown without it.
  }
  return null;
}

/** A run time for refusal texts (UTC+8, the console's home time zone; the en text says so). */
export function when(tms: number): { zh: string; en: string } {
  const d = new Date((tms + 8 * 3600) * 1000).toISOString().slice(0, 16).replace('T', ' ');
  return { zh: d, en: `${d} UTC+8` };
}

import type { Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

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
  clash: (title: string, zh: string, en: string): Message =>
    both(
      `与该设备的定时任务「${title}」（${zh}）执行时间间隔不足 30 分钟`,
      `Less than 30 minutes from this device's timed task "${title}" (${en})`,
    ),
} as const;

/** Stored outcomes the server writes itself (the others are the device / flight reply texts). */
export const OUTCOME_MISSED = 'missed';
export const OUTCOME_SENT = 'sent';

/** The outcome for display: the server's own outcomes localised, reply texts as they came. */
export function outcomeText(outcome: string, lang: Lang): string {
  if (outcome === OUTCOME_MISSED) {
    return both('错过执行时间（服务器当时未运行），未起飞', 'Missed: the server was not running at the time, not flown')(lang);
  }
  if (outcome === OUTCOME_SENT) return both('已下发', 'Sent')(lang);
  return outcome;
}

/** A run time for refusal texts (UTC+8, the console's home time zone; the en text says so). */
export function when(tms: number): { zh: string; en: string } {
  const d = new Date((tms + 8 * 3600) * 1000).toISOString().slice(0, 16).replace('T', ' ');
  return { zh: d, en: `${d} UTC+8` };
}

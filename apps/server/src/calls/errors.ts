import { HTTP_STATUS_OF, ResultCode, codeText, type Envelope, type Lang } from '@nest/contracts';
import { say, type TextKey } from '../texts.js';

/** A localised message: given the caller's language, the text to put in `msg`. */
export type Message = (lang: Lang) => string;

export const textMessage =
  (key: TextKey, params?: Readonly<Record<string, string | number>>): Message =>
  (lang) =>
    say(key, lang, params);

/**
 * Thrown by the call layer and by handlers to answer a failure code; `message` overrides the code's
 * standard text (e.g. to name the offending field). Anything else thrown becomes SERVER_ERROR.
 */
export class CallError extends Error {
  constructor(
    readonly code: number,
    readonly localised?: Message,
  ) {
    super(`call failed with code ${code}`);
    this.name = 'CallError';
  }
}

export const badField = (field: string, key: TextKey = 'calls.field.invalid'): CallError =>
  new CallError(ResultCode.BAD_REQUEST, textMessage(key, { field }));

export function envelope(code: number, lang: Lang, data: unknown = null, message?: Message): Envelope {
  return { code, msg: message ? message(lang) : codeText(code, lang), data };
}

export const httpStatusOf = (code: number): number => HTTP_STATUS_OF[code] ?? 200;

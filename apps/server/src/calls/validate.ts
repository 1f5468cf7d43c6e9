import { APP_TYPE, ResultCode, type Text } from '@nest/contracts';
import { z } from 'zod';
import { CallError, badField, textMessage } from './errors.js';
import type { BodyProblem } from './body.js';

/** Common fields (contracts COMMON_FIELDS) as they arrive, checked before anything else. */
export const commonFieldsSchema = z.object({
  app_type: z.literal(String(APP_TYPE)),
  app_ids: z.string().max(64).optional(),
  app_code: z.string().max(64).optional(),
  app_flavor: z.string().max(64).optional(),
  /** Milliseconds since the epoch. */
  os_timestamp: z.string().regex(/^\d{1,16}$/),
  os_language: z.string().max(16).optional(),
  token: z.string().max(256).optional(),
  pmd: z.string().max(64).optional(),
});
export type CommonFields = z.infer<typeof commonFieldsSchema>;

/**
 * Turns the first zod issue into BAD_REQUEST with a localised message naming the field: missing ->
 * "Field x is required", over the limit -> "Field x is too long", account rule -> the SPEC's account text,
 * a field rule that carries its own text (`params.text`, zh and en: e.g. a route speed's range) -> that
 * text, anything else -> "Field x is invalid".
 */
export function issueToError(issues: readonly z.core.$ZodIssue[], input: Readonly<Record<string, unknown>>): CallError {
  const issue = issues[0];
  if (!issue) return new CallError(ResultCode.BAD_REQUEST);
  const field = issue.path.length > 0 ? String(issue.path[0]) : 'body';
  const value = Object.prototype.hasOwnProperty.call(input, field) ? input[field] : undefined;
  const blank = value === undefined || (typeof value === 'string' && value.trim() === '');
  if (blank) return badField(field, 'calls.field.required');
  if (issue.code === 'too_big' && issue.origin === 'string') return badField(field, 'calls.field.tooLong');
  if (issue.code === 'custom' && issue.message === 'account') {
    return new CallError(ResultCode.BAD_REQUEST, textMessage('calls.field.account'));
  }
  const text = issue.code === 'custom' ? (issue.params as { text?: unknown } | undefined)?.text : undefined;
  if (isText(text)) return new CallError(ResultCode.BAD_REQUEST, (lang) => text[lang]);
  return badField(field);
}

const isText = (v: unknown): v is Text =>
  typeof v === 'object' && v !== null && typeof (v as Text).zh === 'string' && typeof (v as Text).en === 'string';

export function bodyProblemError(problem: BodyProblem): CallError {
  switch (problem.kind) {
    case 'repeated':
      return badField(problem.field, 'calls.field.repeated');
    case 'notText':
      return badField(problem.field, 'calls.field.notText');
    case 'tooLong':
      return badField(problem.field, 'calls.field.tooLong');
    case 'nul':
      return badField(problem.field);
    case 'tooMany':
      return new CallError(ResultCode.PAYLOAD_TOO_LARGE);
  }
}

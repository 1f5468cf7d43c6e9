import path from 'node:path';
import {
  COMMON_FIELDS,
  ResultCode,
  TIMESTAMP_WINDOW_MS,
  calls,
  callUrl,
  holds,
  pmdValueOf,
  sameHex,
  signPmd,
  toLang,
  type CallDef,
  type CallName,
  type Lang,
} from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findLiveSession } from '../auth/sessions.js';
import type { AppDeps } from '../deps.js';
import { DATABASE_UNAVAILABLE_TEXT, isDatabaseUnavailable } from '../db/unavailable.js';
import { STORAGE_FULL_TEXT, isStorageFull } from '../storage/store.js';
import { FormBody, multipartFileLimit, readMultipart, removeUploads } from './body.js';
import { CallError, envelope, httpStatusOf } from './errors.js';
import type { CallContext, CallResult, Caller, Handler, Handlers, UploadedFile } from './types.js';
import { bodyProblemError, commonFieldsSchema, issueToError } from './validate.js';

const COMMON = new Set<string>(COMMON_FIELDS);

/** Language of a request before its body is read: Accept-Language, else Chinese. */
export const headerLang = (request: FastifyRequest): Lang => toLang(request.headers['accept-language']);

const isForm = (request: FastifyRequest): boolean =>
  (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');

/** Every registry entry with its URL under the configured bases. */
export function callRoutes(bases: AppDeps['config']['bases']): { name: CallName; def: CallDef; url: string }[] {
  return (Object.keys(calls) as CallName[]).map((name) => {
    const def: CallDef = calls[name];
    return { name, def, url: callUrl(def, bases) };
  });
}

function toRecord(map: ReadonlyMap<string, string>, keep: (key: string) => boolean): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of map) if (keep(k)) out[k] = v;
  return out;
}

interface Outcome {
  code: number;
  lang: Lang;
  data: unknown;
  result?: CallResult;
  error?: CallError;
}

/**
 * Runs one call through the fixed order of checks: body -> common fields -> access (token -> live
 * session) -> signature (pmd, then timestamp freshness) -> function id (read from the database now) ->
 * handler present -> call fields (registry zod schema) -> handler.
 */
async function runCall(
  name: CallName,
  def: CallDef,
  request: FastifyRequest,
  deps: AppDeps,
  handler: Handler | undefined,
  files: UploadedFile[],
): Promise<Outcome> {
  let lang = headerLang(request);
  try {
    // 1. body
    let body: FormBody;
    if (def.multipart) {
      if (!request.isMultipart()) throw new CallError(ResultCode.UNSUPPORTED_MEDIA);
      body = await readMultipart(request, path.join(deps.config.dataDir, 'tmp'), files, multipartFileLimit(name, deps.config));
    } else {
      if (!isForm(request) || !(request.body instanceof FormBody)) throw new CallError(ResultCode.UNSUPPORTED_MEDIA);
      body = request.body;
    }
    const raw = body.fields;
    if (raw.has('os_language')) lang = toLang(raw.get('os_language'));
    if (body.problem) throw bodyProblemError(body.problem);

    // 2. common fields
    const commonInput = toRecord(raw, (k) => COMMON.has(k));
    const common = commonFieldsSchema.safeParse(commonInput);
    if (!common.success) throw issueToError(common.error.issues, commonInput);
    const token = common.data.token ?? '';

    // 3. access
    let caller: Caller | null = null;
    if (def.access !== 'public') {
      caller = token ? await findLiveSession(deps.db, token, deps.sessions) : null;
      if (!caller) throw new CallError(ResultCode.LOGIN_EXPIRED);
    }

    // 4. signature
    const expected = signPmd({
      token,
      pmdValue: pmdValueOf(toRecord(raw, (k) => def.pmd.includes(k)), def.pmd),
      timestamp: def.timestamp ? common.data.os_timestamp : undefined,
    });
    if (!sameHex(expected, (common.data.pmd ?? '').toLowerCase())) throw new CallError(ResultCode.BAD_SIGNATURE);
    if (def.timestamp && Math.abs(Date.now() - Number(common.data.os_timestamp)) > TIMESTAMP_WINDOW_MS) {
      throw new CallError(ResultCode.STALE_TIMESTAMP);
    }

    // 5. function id
    if (caller && def.access !== 'session' && !holds(caller.funList, def.access)) {
      throw new CallError(ResultCode.NO_PERMISSION);
    }

    // 6. handler present
    if (!handler) throw new CallError(ResultCode.NOT_IMPLEMENTED);

    // 7. call fields
    const fieldInput = toRecord(raw, (k) => !COMMON.has(k));
    const parsed = def.fields.safeParse(fieldInput);
    if (!parsed.success) throw issueToError(parsed.error.issues, fieldInput);

    // 8. handler
    const ctx: CallContext = {
      name,
      def: def as CallContext['def'],
      fields: parsed.data as CallContext['fields'],
      raw,
      lang,
      caller,
      address: request.ip,
      files,
      log: request.log,
    };
    const result = await handler(ctx as never);
    return { code: result.code ?? ResultCode.OK, lang, data: result.data ?? null, result };
  } catch (err) {
    if (err instanceof CallError) return { code: err.code, lang, data: null, error: err };
    // Disk or object store full (a multipart temp file, a media put): say so, in the caller's language.
    if (isStorageFull(err)) {
      request.log.warn({ err, call: name }, 'call failed: storage full');
      return { code: ResultCode.SERVER_ERROR, lang, data: null, error: new CallError(ResultCode.SERVER_ERROR, (l) => STORAGE_FULL_TEXT[l]) };
    }
    // PostgreSQL stopped or unreachable: say so (the pool reconnects by itself once it is back).
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err: (err as Error).message, call: name }, 'call failed: database unavailable');
      return { code: ResultCode.SERVER_ERROR, lang, data: null, error: new CallError(ResultCode.SERVER_ERROR, (l) => DATABASE_UNAVAILABLE_TEXT[l]) };
    }
    // Multipart limit errors and the like carry an HTTP status: map them like the app error handler.
    const status = (err as { statusCode?: number } | null)?.statusCode;
    if (status === 413) return { code: ResultCode.PAYLOAD_TOO_LARGE, lang, data: null };
    if (status === 400 || status === 406) return { code: ResultCode.BAD_REQUEST, lang, data: null };
    request.log.error({ err, call: name }, 'call failed');
    return { code: ResultCode.SERVER_ERROR, lang, data: null };
  }
}

function send(reply: FastifyReply, outcome: Outcome): FastifyReply {
  const message = outcome.error?.localised ?? outcome.result?.message;
  return reply.code(httpStatusOf(outcome.code)).send(envelope(outcome.code, outcome.lang, outcome.data, message));
}

/**
 * Registers `POST <base><path>` for every entry of the contracts call registry. Handlers come from the
 * feature modules; an entry without one answers NOT_IMPLEMENTED after the access checks.
 */
export function registerCalls(app: FastifyInstance, deps: AppDeps, handlers: Handlers): void {
  for (const { name, def, url } of callRoutes(deps.config.bases)) {
    const handler = handlers[name] as Handler | undefined;
    app.post(url, async (request, reply) => {
      const files: UploadedFile[] = [];
      let outcome: Outcome;
      try {
        outcome = await runCall(name, def, request, deps, handler, files);
      } finally {
        // Uploads are gone before the answer leaves.
        if (files.length > 0) await removeUploads(files);
      }
      return send(reply, outcome);
    });
  }
}

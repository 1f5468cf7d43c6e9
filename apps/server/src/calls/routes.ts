import path from 'node:path';
import {
  COMMON_FIELDS,
  ResultCode,
  TIMESTAMP_WINDOW_MS,
  calls,
  callUrl,
  holds,
  isSuccess,
  pmdValueOf,
  sameHex,
  showTexts,
  signPmd,
  toLang,
  type CallDef,
  type CallName,
  type Lang,
} from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { DATABASE_UNAVAILABLE_TEXT, isDatabaseUnavailable } from '../db/unavailable.js';
import { STORAGE_FULL_TEXT, isStorageFull } from '../storage/store.js';
import { FormBody, MalformedBody, multipartFileLimit, readMultipart, removeUploads } from './body.js';
import { CallError, envelope, httpStatusOf } from './errors.js';
import { RawJson } from './raw-json.js';
import type { CallContext, CallResult, Caller, Handler, Handlers, UploadedFile } from './types.js';
import { UPLOAD_TEXTS, UploadSlots, type UploadSlot } from './uploads.js';
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
  /** HTTP status instead of the code's own (a malformed body: 400). */
  status?: number;
}

/** A call's temporary files and the upload slot it holds while they are received and handled. */
interface Upload {
  files: UploadedFile[];
  slots: UploadSlots;
  slot: UploadSlot | null;
}

/** The common fields a multipart body must carry before its first file part (the checks need them). */
const FIELDS_BEFORE_FILE = ['app_type', 'os_timestamp', 'pmd'] as const;

interface Checked {
  raw: ReadonlyMap<string, string>;
  caller: Caller | null;
  fields: unknown;
}

/**
 * Runs one call through the fixed order of checks: body -> common fields -> access (token -> live
 * session) -> signature (pmd, then timestamp freshness) -> function id (read from the database now) ->
 * handler present -> call fields (registry zod schema) -> handler.
 * A multipart body runs the checks on its text fields before the first byte of a file is read (the fields
 * come first; readMultipart), then takes an upload slot (UploadSlots) and only then receives the file; once
 * the files are in, the session and function are read again (a long upload may outlast them).
 */
async function runCall(
  name: CallName,
  def: CallDef,
  request: FastifyRequest,
  deps: AppDeps,
  findCaller: FindCaller,
  handler: Handler | undefined,
  upload: Upload,
): Promise<Outcome> {
  let lang = headerLang(request);
  try {
    const token = (raw: ReadonlyMap<string, string>) => raw.get('token') ?? '';

    // 3. access, and 5. function id (read from the database each time).
    const authorise = async (t: string): Promise<Caller | null> => {
      if (def.access === 'public') return null;
      const caller = t ? await findCaller(t) : null;
      if (!caller) throw new CallError(ResultCode.LOGIN_EXPIRED);
      return caller;
    };
    const mayCall = (caller: Caller | null) => {
      if (caller && def.access !== 'session' && !holds(caller.funList, def.access)) throw new CallError(ResultCode.NO_PERMISSION);
    };

    const check = async (body: FormBody, fileNext: boolean): Promise<Checked> => {
      const raw = body.fields;
      if (raw.has('os_language')) lang = toLang(raw.get('os_language'));
      if (body.problem) throw bodyProblemError(body.problem);
      if (fileNext) {
        const missing = FIELDS_BEFORE_FILE.find((f) => !raw.has(f));
        if (missing) throw new CallError(ResultCode.BAD_REQUEST, UPLOAD_TEXTS.fieldBeforeFile(missing));
      }

      // 2. common fields
      const commonInput = toRecord(raw, (k) => COMMON.has(k));
      const common = commonFieldsSchema.safeParse(commonInput);
      if (!common.success) throw issueToError(common.error.issues, commonInput);

      // 3. access
      const caller = await authorise(token(raw));

      // 4. signature
      const expected = signPmd({
        token: token(raw),
        pmdValue: pmdValueOf(toRecord(raw, (k) => def.pmd.includes(k)), def.pmd),
        timestamp: def.timestamp ? common.data.os_timestamp : undefined,
      });
      if (!sameHex(expected, (common.data.pmd ?? '').toLowerCase())) throw new CallError(ResultCode.BAD_SIGNATURE);
      if (def.timestamp && Math.abs(Date.now() - Number(common.data.os_timestamp)) > TIMESTAMP_WINDOW_MS) {
        throw new CallError(ResultCode.STALE_TIMESTAMP);
      }

      // 5. function id
      mayCall(caller);

      // 6. handler present
      if (!handler) throw new CallError(ResultCode.NOT_IMPLEMENTED);

      // 7. call fields
      const fieldInput = toRecord(raw, (k) => !COMMON.has(k));
      const parsed = def.fields.safeParse(fieldInput);
      if (!parsed.success) throw issueToError(parsed.error.issues, fieldInput);
      return { raw, caller, fields: parsed.data };
    };

    // 1. body, then 2-7 on its fields
    let checked: Checked;
    if (def.multipart) {
      if (!request.isMultipart()) throw new CallError(ResultCode.UNSUPPORTED_MEDIA);
      const gate: { passed: Checked | null } = { passed: null };
      await readMultipart(request, path.join(deps.config.dataDir, 'tmp'), upload.files, {
        fileSize: multipartFileLimit(name, deps.config),
        beforeFiles: async (body, fileNext) => {
          gate.passed = await check(body, fileNext);
          // Over the upload limits: refused here, before the file is read.
          if (fileNext) upload.slot = upload.slots.take(gate.passed.caller?.user.u_id ?? null);
        },
      });
      checked = gate.passed!;
      if (upload.files.length > 0) {
        // Received after the checks: the session may have ended or the function been taken meanwhile.
        checked = { ...checked, caller: await authorise(token(checked.raw)) };
        mayCall(checked.caller);
      }
    } else {
      if (!isForm(request) || !(request.body instanceof FormBody)) throw new CallError(ResultCode.UNSUPPORTED_MEDIA);
      checked = await check(request.body, false);
    }

    // 8. handler
    const ctx: CallContext = {
      name,
      def: def as CallContext['def'],
      fields: checked.fields as CallContext['fields'],
      raw: checked.raw,
      lang,
      caller: checked.caller,
      address: request.ip,
      files: upload.files,
      log: request.log,
    };
    const result = await handler!(ctx);
    const code = result.code ?? ResultCode.OK;
    // Demo and seeded names (contracts demo-texts) in the caller's language; what users typed as stored.
    const data = 'shown' in result && result.shown === true ? (result.data ?? null) : showTexts(result.data ?? null, lang);
    if (deps.config.checkAnswers && isSuccess(code)) {
      const checked = def.answer.safeParse(data instanceof RawJson ? JSON.parse(data.json) : data);
      if (!checked.success) {
        request.log.error({ call: name, issues: checked.error.issues.slice(0, 10) }, 'call answer does not match its schema');
        return { code: ResultCode.SERVER_ERROR, lang, data: null };
      }
    }
    return { code, lang, data, result };
  } catch (err) {
    if (err instanceof CallError) return { code: err.code, lang, data: null, error: err };
    // A truncated or malformed multipart body (or the client gone mid-upload): the request's fault.
    if (err instanceof MalformedBody) {
      request.log.warn({ call: name, reason: err.reason }, 'call refused: malformed multipart body');
      return { code: ResultCode.BAD_REQUEST, lang, data: null, status: 400, error: new CallError(ResultCode.BAD_REQUEST, UPLOAD_TEXTS.malformed) };
    }
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
  reply.code(outcome.status ?? httpStatusOf(outcome.code));
  if (outcome.data instanceof RawJson) {
    // The envelope's text with the data's text in place of its null: what serialising the whole would give.
    const head = JSON.stringify(envelope(outcome.code, outcome.lang, null, message));
    return reply.type('application/json; charset=utf-8').send(outcome.data.body(head.slice(0, -'null}'.length)));
  }
  return reply.send(envelope(outcome.code, outcome.lang, outcome.data, message));
}

/**
 * The live session a call token opens, or null (unknown, ended, expired). The root gives it (auth owns the
 * sessions; the call plumbing never imports a feature).
 */
export type FindCaller = (token: string) => Promise<Caller | null>;

/**
 * Registers `POST <base><path>` for every entry of the contracts call registry. Handlers come from the
 * feature modules; an entry without one answers NOT_IMPLEMENTED after the access checks. `findCaller`
 * reads the session of a call's token.
 */
export function registerCalls(app: FastifyInstance, deps: AppDeps, handlers: Handlers, findCaller: FindCaller): void {
  const slots = new UploadSlots(deps.config);
  for (const { name, def, url } of callRoutes(deps.config.bases)) {
    const handler = handlers[name] as Handler | undefined;
    app.post(url, async (request, reply) => {
      const upload: Upload = { files: [], slots, slot: null };
      let outcome: Outcome;
      try {
        outcome = await runCall(name, def, request, deps, findCaller, handler, upload);
      } finally {
        // The slot first, then the files: once they are gone, the caller may upload again. Both before the answer leaves.
        upload.slot?.release();
        if (upload.files.length > 0) await removeUploads(upload.files);
      }
      // Refused before the body's end (a file not read, a limit): the connection closes after the answer
      // instead of taking the rest of the body.
      if (def.multipart && request.raw.readableEnded === false) reply.header('connection', 'close');
      return send(reply, outcome);
    });
  }
}

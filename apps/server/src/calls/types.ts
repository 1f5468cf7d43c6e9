import type { CallName, Calls, Lang, ParsedFields } from '@nest/contracts';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Message } from './errors.js';
import type { RawJson } from './raw-json.js';
import type { UserRow } from '../db/schema.js';

/** A file received by a multipart call, saved under DATA_DIR/tmp and removed after the handler. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  path: string;
  size: number;
}

/** The signed-in user behind a call (the session was checked live at the start of the call). */
export interface Caller {
  sessionId: string;
  token: string;
  user: UserRow;
  /** Function ids read from the database for this call. */
  funList: string[];
}

export interface CallContext<N extends CallName = CallName> {
  name: N;
  def: Calls[N];
  /** Call fields after the registry's zod schema (coerced, trimmed). */
  fields: ParsedFields<N>;
  /** Every received form value as sent (strings), common fields included. */
  raw: ReadonlyMap<string, string>;
  lang: Lang;
  /** Null only for `public` calls. */
  caller: Caller | null;
  /** Client address (request.ip). */
  address: string;
  files: readonly UploadedFile[];
  log: FastifyBaseLogger;
}

/** What a handler answers: code defaults to OK (2000), data to null, msg to the code's text. */
export interface CallResult {
  code?: number;
  data?: unknown;
  message?: Message;
  /** The data already shows catalogue texts in the caller's language (contracts showTexts): not walked again. */
  shown?: boolean;
}

/** A refusal a handler answers with (rather than throwing a CallError): its code, data and message. */
export interface Refusal {
  code: number;
  data?: unknown;
  message?: Message;
}

/** What a handler answers: a success (no code) carries the call's answer shape (`CallDef.answer`), a refusal names its code. */
export type HandlerResult<N extends CallName> =
  | { code?: undefined; data: z.input<Calls[N]['answer']> | RawJson; message?: Message; shown?: boolean }
  | Refusal;

export type Handler<N extends CallName = CallName> = (ctx: CallContext<N>) => Promise<HandlerResult<N>>;

/** The handlers of the feature modules, by registry name; a missing one answers NOT_IMPLEMENTED. */
export type Handlers = { [N in CallName]?: Handler<N> };

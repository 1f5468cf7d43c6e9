import {
  CODE_TEXT,
  DEFAULT_SERVICE_BASES,
  HTTP_TEXT,
  REQUEST_TIMEOUT_MS,
  ResultCode,
  calls,
  callUrl,
  codeText,
  isSuccess,
  signedCallBody,
  type CallAnswer,
  type CallDef,
  type CallFields,
  type CallName,
  type Envelope,
  type Service,
} from '@nest/contracts';
import { getToken } from '../cookie';
import { getLang, t } from '../i18n';
import { notify } from '../notify';
import { endSession } from '../session';

export { publicKeys, requestStamp, sealWithPasswordKey } from './keys';

declare global {
  interface Window {
    /** Per-deployment override of service bases, e.g. `{device: 'https://dev.example/api/device'}`. */
    __NEST_BASES__?: Partial<Record<Service, string>>;
  }
}

export type FailureKind = 'code' | 'http' | 'network' | 'timeout' | 'expired' | 'response';

/** Rejection of `call`: `text` is what the user was shown (or would have been, for quiet calls). */
export class RequestError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly text: string,
    readonly code?: number,
    readonly status?: number,
    readonly data?: unknown,
  ) {
    super(text);
    this.name = 'RequestError';
  }
}

export interface CallOptions {
  /** Show nothing and skip the login-expired box (sign-out, background refreshes). */
  quiet?: boolean;
  signal?: AbortSignal;
  /**
   * Without `onUploadProgress`: the whole call's limit. With it: the longest time without any progress
   * (a slow but moving upload of a large file is never cut).
   */
  timeoutMs?: number;
  /**
   * Multipart calls: called with the fraction of the body sent (0..1) as it goes. The call then travels by
   * XMLHttpRequest (fetch reports no upload progress), with the same envelope, timeout and error handling.
   */
  onUploadProgress?: (fraction: number) => void;
  /** Multipart calls: the files, by part name (sent after the fields, never signed). */
  files?: Readonly<Record<string, Blob>>;
  /**
   * The os_timestamp to send (ms; default now): the one the call's password envelopes were sealed for
   * (`sealWithPasswordKey`), which the server requires.
   */
  timestamp?: number;
}

/** What the transport answers: the HTTP status and the body text. */
interface Answer {
  status: number;
  text: string;
}

/** Aborted by the caller's or the timeout's signal: fetch's error, so both transports fail alike. */
const abortError = (): Error => new DOMException('The operation was aborted.', 'AbortError');

async function sendFetch(url: string, body: BodyInit, signal: AbortSignal): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', body, signal, credentials: 'same-origin' });
  return { status: res.status, text: await res.text() };
}

/**
 * POST by XMLHttpRequest, reporting upload progress. `activity` is called on every sign of life (bytes sent
 * or received) so the caller's idle timer restarts; network failures and aborts reject like fetch.
 */
function sendXhr(url: string, body: XMLHttpRequestBodyInit, signal: AbortSignal, progress: (fraction: number) => void, activity: () => void): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort);
    xhr.open('POST', url);
    xhr.upload.onprogress = (e) => {
      activity();
      if (e.lengthComputable && e.total > 0) progress(Math.min(1, e.loaded / e.total));
    };
    xhr.upload.onload = () => progress(1);
    xhr.onprogress = () => activity();
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, text: typeof xhr.responseText === 'string' ? xhr.responseText : '' });
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Network request failed'));
    };
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    progress(0);
    xhr.send(body);
  });
}

/** Service bases: contracts defaults, then `VITE_NEST_BASES` (JSON) at build time, then `window.__NEST_BASES__`. */
export function serviceBases(): Record<Service, string> {
  let fromEnv: Partial<Record<Service, string>> = {};
  const raw = import.meta.env.VITE_NEST_BASES as string | undefined;
  if (raw) {
    try {
      fromEnv = JSON.parse(raw) as Partial<Record<Service, string>>;
    } catch {
      fromEnv = {};
    }
  }
  return { ...DEFAULT_SERVICE_BASES, ...fromEnv, ...(globalThis.window?.__NEST_BASES__ ?? {}) };
}

type FieldValue = string | number | boolean | Blob | null | undefined | readonly unknown[] | object;

const asText = (v: Exclude<FieldValue, Blob | null | undefined>): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);

/** The full payload of a call: common fields, the call's fields, and the pmd signature (SPEC section 7). */
export function buildPayload(
  def: CallDef,
  fields: Readonly<Record<string, unknown>>,
  now: number = Date.now(),
): Record<string, string | Blob> {
  const signed: Record<string, string> = {};
  const files: Record<string, Blob> = {};
  for (const [k, v] of Object.entries(fields) as [string, FieldValue][]) {
    if (v === undefined || v === null) continue;
    if (typeof Blob !== 'undefined' && v instanceof Blob) files[k] = v;
    else signed[k] = asText(v);
  }
  const payload: Record<string, string | Blob> = signedCallBody(def, signed, getToken(), now, getLang());
  // Files after the text fields (encode puts them last in a multipart body anyway).
  for (const [k, v] of Object.entries(files)) payload[k] = v;
  return payload;
}

function encode(def: CallDef, payload: Record<string, string | Blob>): URLSearchParams | FormData {
  if (def.multipart) {
    // Every text field (pmd included) before the files: the server checks the fields, the session and the
    // signature before it reads a file, and refuses a file that comes before them.
    const form = new FormData();
    const entries = Object.entries(payload);
    for (const [k, v] of entries) if (typeof v === 'string') form.append(k, v);
    for (const [k, v] of entries) if (typeof v !== 'string') form.append(k, v);
    return form;
  }
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(payload)) params.append(k, typeof v === 'string' ? v : '');
  return params;
}

// Several calls can fail with 40263 at once: the box is shown once until the user confirms it.
let expiredBoxOpen = false;

function loginExpired(): void {
  if (expiredBoxOpen) return;
  expiredBoxOpen = true;
  notify().alert('warning', {
    title: t('common.notice'),
    content: CODE_TEXT[ResultCode.LOGIN_EXPIRED][getLang()],
    okText: t('common.ok'),
    onOk: () => {
      expiredBoxOpen = false;
      endSession();
    },
  });
}

/** For tests. */
export function resetRequestState(): void {
  expiredBoxOpen = false;
}

const isEnvelope = (v: unknown): v is Envelope =>
  typeof v === 'object' && v !== null && typeof (v as Envelope).code === 'number';

/** Development builds and tests check every successful answer against the call's schema; production trusts it. */
const CHECK_ANSWERS = import.meta.env.DEV;

/**
 * Performs a registered call (POST, form-encoded or multipart, signed) and answers the envelope's data,
 * typed by the call's answer schema (contracts `CallDef.answer`). Rejects with a RequestError after showing
 * the user why (unless `quiet`); in development and tests an answer that does not match its schema is a
 * `response` failure.
 */
export async function call<N extends CallName>(name: N, fields: CallFields<N>, opts: CallOptions = {}): Promise<CallAnswer<N>> {
  const def: CallDef = calls[name];
  const lang = getLang();
  const body = encode(def, buildPayload(def, { ...(fields as Record<string, unknown>), ...(def.multipart ? opts.files : undefined) }, opts.timestamp));
  const url = callUrl(def, serviceBases());

  const fail = (err: RequestError): never => {
    if (!opts.quiet) notify().error(err.text);
    throw err;
  };

  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  };
  arm();
  const onOuterAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onOuterAbort);
  if (opts.signal?.aborted) controller.abort();

  let res: Answer;
  let parsed: unknown;
  try {
    const progress = opts.onUploadProgress;
    res =
      progress && def.multipart
        ? await sendXhr(url, body, controller.signal, progress, arm)
        : await sendFetch(url, body, controller.signal);
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = undefined;
    }
  } catch (err) {
    if (timedOut) return fail(new RequestError('timeout', t('request.timeout')));
    if (opts.signal?.aborted) throw err;
    return fail(new RequestError('network', t('request.network')));
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }

  if (isEnvelope(parsed) && parsed.code === ResultCode.LOGIN_EXPIRED) {
    if (!opts.quiet) loginExpired();
    throw new RequestError('expired', CODE_TEXT[ResultCode.LOGIN_EXPIRED][lang], parsed.code, res.status);
  }
  const ok = res.status >= 200 && res.status < 300;
  if (res.status === 404 || res.status === 401 || res.status === 500) {
    return fail(new RequestError('http', HTTP_TEXT[res.status][lang], isEnvelope(parsed) ? parsed.code : undefined, res.status));
  }
  if (!isEnvelope(parsed)) {
    const text = ok ? t('request.badResponse') : t('request.httpError', { status: res.status });
    return fail(new RequestError(ok ? 'response' : 'http', text, undefined, res.status));
  }
  if (isSuccess(parsed.code)) {
    if (CHECK_ANSWERS) {
      const checked = def.answer.safeParse(parsed.data);
      if (!checked.success) {
        console.error(`answer of ${name} does not match its schema`, checked.error.issues);
        return fail(new RequestError('response', t('request.badResponse'), parsed.code, res.status, parsed.data));
      }
    }
    // The answer as sent (checked above where checks run): a schema never reshapes what the server said.
    return parsed.data as CallAnswer<N>;
  }
  const text = parsed.msg || codeText(parsed.code, lang);
  return fail(new RequestError('code', text, parsed.code, res.status, parsed.data));
}

import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import { ResultCode, type CallName } from '@nest/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { CallError } from './errors.js';
import type { UploadedFile } from './types.js';
import { UPLOAD_TEXTS } from './uploads.js';

/** Largest form-encoded body (bytes). Beyond: PAYLOAD_TOO_LARGE. */
export const FORM_BODY_LIMIT = 1024 * 1024;
/** Largest single multipart field (bytes). */
export const MULTIPART_FIELD_LIMIT = 64 * 1024;
export const MAX_FIELDS = 500;
export const MAX_FILES = 10;

export type BodyProblem = { kind: 'repeated' | 'notText' | 'tooLong' | 'tooMany' | 'nul'; field: string };

/**
 * A parsed form body. Values live in a Map, so keys such as `__proto__` or `constructor` are plain data
 * and never reach an object's prototype. A repeated key, a non-text value or a NUL character is recorded as a problem;
 * the call layer refuses such a body with BAD_REQUEST.
 */
export class FormBody {
  readonly fields = new Map<string, string>();
  problem: BodyProblem | null = null;

  add(key: string, value: unknown): void {
    if (this.problem) return;
    if (this.fields.has(key)) this.problem = { kind: 'repeated', field: key };
    else if (typeof value !== 'string') this.problem = { kind: 'notText', field: key };
    // No form text holds NUL; PostgreSQL cannot store it, and it would end the call in a database error.
    else if (value.includes('\0') || key.includes('\0')) this.problem = { kind: 'nul', field: key.replace(/\0/g, '') };
    else if (this.fields.size >= MAX_FIELDS) this.problem = { kind: 'tooMany', field: key };
    else this.fields.set(key, value);
  }
}

/** Parser for application/x-www-form-urlencoded (plugged into @fastify/formbody). Never throws. */
export function parseForm(text: string): FormBody {
  const body = new FormBody();
  for (const [key, value] of new URLSearchParams(text)) body.add(key, value);
  return body;
}

/**
 * The largest file a multipart call accepts: firmware packages and teaching videos have their own limits
 * (larger than the general UPLOAD_MAX_MB by default), every other call the general one.
 */
export function multipartFileLimit(
  name: CallName,
  config: Pick<Config, 'uploadMaxBytes' | 'firmwareMaxBytes' | 'teachingVideoMaxBytes' | 'mapPackageMaxBytes'>,
): number {
  if (name === 'romAdd') return config.firmwareMaxBytes;
  if (name === 'teachAdd') return config.teachingVideoMaxBytes;
  if (name === 'mapPackageAdd') return config.mapPackageMaxBytes;
  return config.uploadMaxBytes;
}

/**
 * A multipart body that ended early (truncated, or the client went away mid-upload) or broke the multipart
 * format (no boundary, a part cut short). The call answers BAD_REQUEST with HTTP 400, logged at warn: it
 * is the request's fault, not the server's.
 */
export class MalformedBody extends Error {
  readonly statusCode = 400;
  constructor(readonly reason: string) {
    super(`malformed multipart body: ${reason}`);
    this.name = 'MalformedBody';
  }
}

const isFsError = (err: unknown): boolean => typeof err === 'object' && err !== null && 'syscall' in err;

/**
 * What the parser or a file part threw, as the call layer sees it: a limit (413) or another error that
 * carries its HTTP status stays as it is, and so does a file system error of the temp file (disk full);
 * anything else (busboy's "Unexpected end of multipart data", "Part terminated early", "Boundary not found",
 * the request closed early) is a malformed body.
 */
function bodyError(err: unknown): unknown {
  if (isFsError(err)) return err;
  const e = err as { statusCode?: unknown; code?: unknown; message?: unknown } | null;
  if (e?.code === 'FST_MP_PREMATURE_CLOSE') return new MalformedBody('the request ended before the multipart body did');
  if (typeof e?.statusCode === 'number') return err;
  return new MalformedBody(typeof e?.message === 'string' ? e.message : String(err));
}

export interface MultipartOptions {
  /** The largest file (bytes); replaces the app-wide file limit for this request. */
  fileSize?: number;
  /**
   * The call's checks, run once on the text fields received so far: before the first byte of the first
   * file part is read (`fileNext` true), or at the end of a body without files. Throwing refuses the call:
   * the file part is dropped unread and nothing is written.
   */
  beforeFiles(body: FormBody, fileNext: boolean): Promise<void>;
}

/**
 * Reads a multipart body: text fields into a FormBody, then files streamed to DATA_DIR/tmp (the caller
 * removes them with `removeUploads`, also after a failure: every file is listed in `files` before its first
 * byte is written). The text fields must all come before the first file part: `beforeFiles` checks them
 * (signature, session, function) before any file byte is read, and a text field after a file part is
 * refused. Limits (field size, file size, counts) are enforced by @fastify/multipart; `fileSize` replaces
 * the app-wide file limit for this request. A truncated or malformed body throws MalformedBody.
 */
export async function readMultipart(request: FastifyRequest, tmpDir: string, files: UploadedFile[], options: MultipartOptions): Promise<FormBody> {
  const body = new FormBody();
  const parts = request.parts(options.fileSize === undefined ? undefined : { limits: { fileSize: options.fileSize } })[Symbol.asyncIterator]();
  let checked = false;
  for (;;) {
    let step: IteratorResult<Multipart>;
    try {
      step = await parts.next();
    } catch (err) {
      throw bodyError(err);
    }
    if (step.done) break;
    const part = step.value;
    if (part.type === 'file') {
      if (!checked) {
        checked = true;
        try {
          await options.beforeFiles(body, true);
        } catch (err) {
          // Refused before the file: it is never read (destroying it stops the parser and unpipes the request).
          part.file.destroy();
          throw err;
        }
      }
      await mkdir(tmpDir, { recursive: true });
      const file = path.join(tmpDir, randomUUID());
      const entry: UploadedFile = { field: part.fieldname, filename: part.filename, mimetype: part.mimetype, path: file, size: 0 };
      files.push(entry);
      const out = createWriteStream(file, { mode: 0o600 });
      const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
      try {
        await pipeline(part.file, out);
      } catch (err) {
        // Let the half-written file be closed (and so exist) before the caller removes it.
        await closed;
        throw bodyError(err);
      }
      if (part.file.truncated) {
        throw Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413 });
      }
      entry.size = part.file.bytesRead;
    } else {
      // Fields after a file would escape the checks that ran before it.
      if (checked) throw new CallError(ResultCode.BAD_REQUEST, UPLOAD_TEXTS.fieldBeforeFile(part.fieldname));
      if (part.valueTruncated && !body.problem) body.problem = { kind: 'tooLong', field: part.fieldname };
      body.add(part.fieldname, part.value);
    }
  }
  if (!checked) await options.beforeFiles(body, false);
  return body;
}

export async function removeUploads(files: readonly UploadedFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}

import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { CallName } from '@nest/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { UploadedFile } from './types.js';

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
export function multipartFileLimit(name: CallName, config: Pick<Config, 'uploadMaxBytes' | 'firmwareMaxBytes' | 'teachingVideoMaxBytes'>): number {
  if (name === 'romAdd') return config.firmwareMaxBytes;
  if (name === 'teachAdd') return config.teachingVideoMaxBytes;
  return config.uploadMaxBytes;
}

/**
 * Reads a multipart body: text fields into a FormBody, files streamed to DATA_DIR/tmp (the caller removes
 * them with `removeUploads`). Limits (field size, file size, counts) are enforced by @fastify/multipart;
 * `fileSize` replaces the app-wide file limit for this request. Errors propagate and are mapped by the
 * app's error handler.
 */
export async function readMultipart(
  request: FastifyRequest,
  tmpDir: string,
  files: UploadedFile[],
  fileSize?: number,
): Promise<FormBody> {
  const body = new FormBody();
  for await (const part of request.parts(fileSize === undefined ? undefined : { limits: { fileSize } })) {
    if (part.type === 'file') {
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
        throw err;
      }
      if (part.file.truncated) {
        throw Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413 });
      }
      entry.size = part.file.bytesRead;
    } else {
      if (part.valueTruncated && !body.problem) body.problem = { kind: 'tooLong', field: part.fieldname };
      body.add(part.fieldname, part.value);
    }
  }
  return body;
}

export async function removeUploads(files: readonly UploadedFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}

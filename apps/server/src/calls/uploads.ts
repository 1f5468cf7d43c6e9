import { ResultCode, type Lang } from '@nest/contracts';
import type { Config } from '../config.js';
import { CallError, type Message } from './errors.js';

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

/** Refusals of multipart bodies and file uploads, in both console languages. */
export const UPLOAD_TEXTS = {
  /** A file part came before a field the checks need (or a field came after a file part). */
  fieldBeforeFile: (field: string): Message =>
    both(`字段 ${field} 必须在文件之前发送（请先发送表单字段，再发送文件）`, `Field ${field} must be sent before the file (form fields first, then the file)`),
  /** The caller already has UPLOADS_PER_USER uploads in progress. */
  userBusy: both('您已有上传正在进行，请等它完成后再试', 'Another of your uploads is in progress; try again once it has finished'),
  /** UPLOADS_AT_ONCE uploads are in progress on this instance. */
  serverBusy: both('服务器正忙于处理其他上传，请稍后再试', 'The server is busy with other uploads; please try again shortly'),
  /** The multipart body ended early or does not follow the multipart format. */
  malformed: both('请求内容不完整或格式错误，请重新上传', 'The request body is incomplete or malformed; please upload again'),
} as const;

/** A held upload slot; `release` gives it back (once; later calls do nothing). */
export interface UploadSlot {
  release(): void;
}

/**
 * Counts the file uploads in progress on this instance, per user and in all (config UPLOADS_PER_USER,
 * UPLOADS_AT_ONCE). A slot is taken once the call's checks passed, just before the first file byte is read,
 * and given back when the call has answered and its temporary files are gone. A caller over either limit is
 * refused with UPLOAD_BUSY (HTTP 429) and nothing of the file is read. The count is per instance: behind a
 * load balancer each instance bounds its own DATA_DIR/tmp.
 */
export class UploadSlots {
  private total = 0;
  private readonly perUser = new Map<string, number>();

  constructor(private readonly limits: Pick<Config, 'uploadsPerUser' | 'uploadsAtOnce'>) {}

  /** Takes a slot for `user` (null: a caller without a session counts only towards the total) or throws UPLOAD_BUSY. */
  take(user: string | null): UploadSlot {
    const mine = user === null ? 0 : (this.perUser.get(user) ?? 0);
    if (user !== null && mine >= this.limits.uploadsPerUser) throw new CallError(ResultCode.UPLOAD_BUSY, UPLOAD_TEXTS.userBusy);
    if (this.total >= this.limits.uploadsAtOnce) throw new CallError(ResultCode.UPLOAD_BUSY, UPLOAD_TEXTS.serverBusy);
    this.total++;
    if (user !== null) this.perUser.set(user, mine + 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.total--;
        if (user === null) return;
        const left = (this.perUser.get(user) ?? 1) - 1;
        if (left > 0) this.perUser.set(user, left);
        else this.perUser.delete(user);
      },
    };
  }

  /** Uploads in progress (for tests and diagnostics). */
  get inProgress(): number {
    return this.total;
  }
}

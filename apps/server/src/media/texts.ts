import type { Text } from '@nest/contracts';
import { STORAGE_FULL_TEXT } from '../storage/store.js';

/** Texts of the upload endpoint's refusals (devices log them; operators read them in device logs). */
export const UPLOAD_TEXT = {
  unauthorized: { zh: '设备认证失败', en: 'Device authentication failed' },
  bad_request: { zh: '上传信息无效', en: 'Invalid upload description' },
  bad_offset_header: { zh: '缺少或无效的 upload-offset', en: 'Missing or invalid upload-offset header' },
  not_found: { zh: '没有这个上传', en: 'No such upload' },
  offset_mismatch: { zh: '偏移量与服务器不一致', en: 'The offset does not match the server' },
  too_large: { zh: '数据超出文件大小或分块上限', en: 'More data than the file size or the chunk limit allows' },
  unsupported_media: { zh: '不支持的内容类型', en: 'Unsupported content type' },
  sha256_mismatch: { zh: '文件校验失败，请从头重新上传', en: 'Checksum mismatch: upload again from the start' },
  content_mismatch: { zh: '文件内容与声明的类型不符', en: 'The file is not what its type says' },
  storage_full: STORAGE_FULL_TEXT,
  server_error: { zh: '服务器错误', en: 'Server error' },
} as const satisfies Record<string, Text>;
export type UploadError = keyof typeof UPLOAD_TEXT;

/** A refusal body: the error code, the offset when the device should resume somewhere, both texts. */
export const refusalBody = (error: UploadError, extra: Record<string, unknown> = {}) => ({ error, ...extra, msg: UPLOAD_TEXT[error] });

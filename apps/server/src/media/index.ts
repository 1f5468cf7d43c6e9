import type { FastifyInstance } from 'fastify';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';

/** The device media upload endpoint (contracts MEDIA_UPLOAD_PATH). SCAFFOLD (issue 5). */
export async function registerMediaUpload(_app: FastifyInstance, _deps: AppDeps, _hub: PushHub): Promise<void> {}

/** /result/list and the result deletions. SCAFFOLD. */
export function resultHandlers(_deps: AppDeps): Handlers {
  return {};
}

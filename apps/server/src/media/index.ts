/** Device media uploads (upload.ts) and the result calls (handlers.ts); README.md has the decisions. */
export { registerMediaUpload } from './upload.js';
export { resultHandlers } from './handlers.js';

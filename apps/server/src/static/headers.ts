import { onlineBasemapOrigins } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Content-Disposition of a download: a plain ASCII fallback (anything else becomes `_`, so no quote, slash or
 * control character reaches the header) plus the exact UTF-8 name per RFC 6266 / 5987.
 */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const TILE_ORIGINS = onlineBasemapOrigins().join(' ');

/**
 * Content-Security-Policy of the console: the app, its calls and media come from this origin only; the
 * online basemaps' tile servers are the one exception (MapLibre fetches their tiles).
 * - scripts: this origin's files only (no inline script, no eval: main.tsx turns zod's eval probe off);
 * - styles keep 'unsafe-inline': antd writes its component styles into <style> elements at run time
 *   (CSS-in-JS) and the boot spinner is an inline <style>; styles cannot run code;
 * - the push WebSocket is same-origin, which 'self' covers (CSP 3), so no scheme-wide ws:/wss: source;
 * - MapLibre starts its workers from blob: URLs (worker-src blob:);
 * - no <base>, forms only to this origin, never framed.
 * e2e/csp.e2e.ts checks the served policy and the built index.html, and that Chromium reports no
 * violation on the pages it opens.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  `img-src 'self' data: blob: ${TILE_ORIGINS}`,
  "style-src 'self' 'unsafe-inline'",
  `connect-src 'self' ${TILE_ORIGINS}`,
  "worker-src 'self' blob:",
  // Live video (hls.js feeds the <video> element from a blob: MediaSource) and recordings.
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': CONTENT_SECURITY_POLICY,
};

const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

/**
 * Adds the security headers to every response (calls, static files, errors, redirects). The hook is
 * synchronous (it waits for nothing): an async hook costs every response a promise and its turns.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of SECURITY_HEADER_ENTRIES) reply.header(name, value);
    done(null, payload);
  });
}

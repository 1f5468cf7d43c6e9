import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { webAppBuilt, type Config } from '../config.js';

export const WEB_BASE = '/nest/';
export const NOT_BUILT_TEXT = 'web app not built: run npm run build';

/** Where Vite puts the hashed build output (chunks, styles, fonts). */
export const ASSETS_BASE = `${WEB_BASE}assets/`;
export const MISSING_ASSET_TEXT = 'Not Found';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Hashed build output (Vite puts it under assets/) is cached for a year; everything else is revalidated. */
export function cacheControlFor(filePath: string): string {
  return filePath.split(path.sep).includes('assets') ? IMMUTABLE : 'no-cache';
}

/**
 * The built web app under /nest/ (history routing: unknown paths below /nest/ without a file extension get
 * index.html, nothing below /nest/assets/ does); `/` and `/nest` redirect to `/nest/`. Without a build, /nest/ answers a plain-text hint.
 * Returns the SPA fallback for the app's not-found handler: true when it answered.
 */
export async function registerWebApp(
  app: FastifyInstance,
  config: Pick<Config, 'webDist'>,
): Promise<(request: FastifyRequest, reply: FastifyReply) => boolean> {
  app.get('/', async (_request, reply) => reply.redirect(WEB_BASE));
  app.get('/nest', async (_request, reply) => reply.redirect(WEB_BASE));

  if (!webAppBuilt(config)) {
    const notBuilt = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(NOT_BUILT_TEXT);
    app.get(WEB_BASE, notBuilt);
    app.get(`${WEB_BASE}*`, notBuilt);
    return () => false;
  }

  await app.register(fastifyStatic, {
    root: config.webDist,
    prefix: WEB_BASE,
    cacheControl: false,
    // The build writes .br and .gz beside its text files (apps/web/vite.config.ts): sent to browsers that
    // accept them, with Vary: Accept-Encoding.
    preCompressed: true,
    etag: true,
    lastModified: true,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlFor(filePath));
    },
  });

  return (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !url.startsWith(WEB_BASE)) return false;
    if (url.startsWith(ASSETS_BASE)) {
      // A chunk of another build (a page open across an upgrade): a plain 404, never index.html and never
      // cached, so the browser's import fails at once and the page offers a reload.
      void reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(MISSING_ASSET_TEXT);
      return true;
    }
    const last = url.slice(url.lastIndexOf('/') + 1);
    if (last.includes('.')) return false;
    void reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  };
}

import { ResultCode } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import { envelope } from './errors.js';
import { headerLang } from './routes.js';

/**
 * Refuses, before routing, any request whose URL carries a NUL (raw or `%00`) in its path or query: no
 * identifier, name or signature holds one, and PostgreSQL cannot even compare text containing it, so a
 * path parameter or query value with one would otherwise end in a database error (500) wherever it
 * reaches a query. Form bodies are guarded the same way in body.ts.
 */
export function refuseNulInUrls(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.includes('\0') || /%00/.test(request.url)) {
      return reply.code(400).send(envelope(ResultCode.BAD_REQUEST, headerLang(request)));
    }
  });
}

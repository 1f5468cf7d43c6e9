import { MENU, MENU_PATH, PUBLIC_KEYS_PATH, type PublicKeys } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Static JSON resources under /api/static:
 * - menu.json: the contracts MENU list (the browser adds a `?t=` cache-buster; any query is accepted);
 * - public-keys.json: `{password, licence}` as base64 DER SPKI, for contracts sealWithPublicKey.
 * Both answer with `Cache-Control: no-cache` so a restarted server's data is always used.
 */
export function registerStaticResources(app: FastifyInstance, publicKeys: PublicKeys): void {
  app.get(MENU_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').send(MENU));
  app.get(PUBLIC_KEYS_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').send(publicKeys));
}

import { ResultCode, type Lang } from '@nest/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { SECURITY_HEADERS } from '../static/headers.js';
import { envelope, httpStatusOf, type Message } from './errors.js';
import { headerLang } from './routes.js';

const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

export const BAD_URL_TEXT = both('请求地址的编码无效（% 后必须是两位十六进制数，且组成有效的 UTF-8）', 'The request address has an invalid encoding (% must be followed by two hex digits forming valid UTF-8)');
export const LONG_URL_TEXT = both('请求地址过长', 'The request address is too long');

/**
 * Fastify's own answers for requests its router cannot take (fastify option `frameworkErrors`): a path with
 * a broken %-escape (`/api/user/user/%E0%A4%A`), a path parameter over the router's length limit, a failed
 * route constraint. Without this they answer Fastify's JSON instead of the product's envelope. The first two
 * are the request's fault: HTTP 400 / 414 with BAD_REQUEST and a localised msg, logged at warn.
 */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const lang = headerLang(request);
  // These answers skip the hooks (no route was found), so the security headers are set here.
  void reply.headers(SECURITY_HEADERS);
  if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const badUrl = err.code === 'FST_ERR_BAD_URL';
    request.log.warn({ code: err.code, method: request.method }, badUrl ? 'request refused: invalid percent-encoding in the URL' : 'request refused: URL parameter too long');
    void reply.code(badUrl ? 400 : 414).send(envelope(ResultCode.BAD_REQUEST, lang, null, badUrl ? BAD_URL_TEXT : LONG_URL_TEXT));
    return;
  }
  request.log.error({ err }, 'request failed before routing');
  void reply.code(httpStatusOf(ResultCode.SERVER_ERROR)).send(envelope(ResultCode.SERVER_ERROR, lang));
}

/** Headers a reverse proxy adds to say who the client is. */
export const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Without TRUST_PROXY the client address is the TCP peer. Behind a reverse proxy that is the proxy, for
 * every client: the audit log names the proxy, and sign-in throttling counts everyone's failures together, so
 * a few wrong passwords lock every user out. Nothing at start-up tells whether a proxy is in front; the first
 * request carrying X-Forwarded-For, Forwarded or X-Real-IP does. That request makes one warning (once per
 * process), naming the setting.
 */
export function warnUntrustedProxy(app: FastifyInstance, config: Pick<Config, 'trustProxy'>): void {
  if (config.trustProxy) return;
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned) return;
    const header = PROXY_HEADERS.find((h) => request.headers[h] !== undefined);
    if (!header) return;
    warned = true;
    app.log.warn(
      { header, peer: request.socket.remoteAddress ?? request.ip },
      `A request arrived through a proxy (it carries ${header}) but TRUST_PROXY is not set: every client then has the ` +
        "proxy's address, so sign-in throttling locks all users out together and the audit log names the proxy. " +
        'Set TRUST_PROXY=true when the server is only reachable through that proxy (docs/deployment.md). Logged once.',
    );
  });
}

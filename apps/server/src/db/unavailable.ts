import type { Text } from '@nest/contracts';

/**
 * Errors that mean "the database cannot be reached right now" (stopped, restarting, network gone, out of
 * connections) rather than a fault of the request: callers answer them with DATABASE_UNAVAILABLE_TEXT,
 * and the pool reconnects by itself once the database is back.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated due to connection timeout',
  // A query on an open connection got no answer within DB_QUERY_TIMEOUT_MS (a frozen database).
  'Query read timeout',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | null, depth = 0; e && depth < 4; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (NETWORK_CODES.has(code)) return true;
    // SQLSTATE class 08 connection exception, 57P01-57P03 shutdown / crash / cannot connect now, 53300 too many connections.
    if (/^08...$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (MESSAGES.some((m) => message.includes(m))) return true;
    // A connect to several addresses fails as an AggregateError of the attempts.
    if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export const DATABASE_UNAVAILABLE_TEXT: Text = {
  zh: '数据库暂时无法访问，请稍后重试',
  en: 'The database is unavailable at the moment; please try again shortly',
};

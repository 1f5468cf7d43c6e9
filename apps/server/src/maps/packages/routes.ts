import { gunzipSync } from 'node:zlib';
import { ResultCode, toLang, type MapPackageContainer } from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envelope, httpStatusOf } from '../../calls/errors.js';
import { nowSeconds } from '../../db/index.js';
import type { AppDeps } from '../../deps.js';
import { openReader, type Readers } from './files.js';
import { PACKAGE_TILES_PREFIX } from './handlers.js';
import { packageTokenHolds } from './links.js';
import { ID_PATTERN, packageFile } from './store.js';

/** A tile coordinate: a plain decimal without sign or leading zeros. */
const COORD = /^(0|[1-9][0-9]{0,7})$/;
const TILE_FILE = /^(0|[1-9][0-9]{0,7})\.(pbf|png|jpg|webp)$/;
/** Zooms the tiles of a package may be asked for (PMTiles tile ids are exact up to 26). */
const MAX_TILE_ZOOM = 26;
/** Signed URLs: cacheable by the browser only, for the link's shortest life. */
export const PACKAGE_TILE_CACHE_CONTROL = 'private, max-age=3600';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  pbf: 'application/x-protobuf',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

function fail(request: FastifyRequest, reply: FastifyReply, code: number, status?: number) {
  const lang = toLang(request.headers['accept-language']);
  return reply.code(status ?? httpStatusOf(code)).header('cache-control', 'no-store').send(envelope(code, lang));
}

/**
 * GET {zone}/tiles/packages/<id>/<exp>.<sig>/{z}/{x}/{y}.<format>: a tile of an offline map package.
 * 401 without a live signature for that package (links.ts), 404 for a package that is gone or a tile
 * outside the 2^z grid, 400 for a malformed coordinate or a format that is not the package's; 204 for a
 * tile the package does not hold; ETag (packages never change: id and coordinate) and 304. Gzip'd vector
 * tiles go out as they are with Content-Encoding gzip, or unzipped for a client that does not accept it.
 */
export function registerPackageTiles(app: FastifyInstance, deps: AppDeps, readers: Readers): void {
  app.get(`${PACKAGE_TILES_PREFIX}/:id/:token/:z/:x/:file`, async (request, reply) => {
    const { id, token, z, x, file } = request.params as { id: string; token: string; z: string; x: string; file: string };
    const m = TILE_FILE.exec(file);
    if (!ID_PATTERN.test(id) || !COORD.test(z) || !COORD.test(x) || !m) return fail(request, reply, ResultCode.BAD_REQUEST, 400);
    if (!(await packageTokenHolds(deps.db, id, token, nowSeconds()))) return fail(request, reply, ResultCode.LOGIN_EXPIRED, 401);
    const [zn, xn, yn] = [Number(z), Number(x), Number(m[1])];
    if (zn > MAX_TILE_ZOOM || xn >= 2 ** zn || yn >= 2 ** zn) return fail(request, reply, ResultCode.NO_SUCH_CALL, 404);
    const row = await deps.db.selectFrom('map_packages').select(['id', 'container', 'format']).where('id', '=', id).executeTakeFirst();
    if (!row) return fail(request, reply, ResultCode.NO_SUCH_CALL, 404);
    if (m[2] !== row.format) return fail(request, reply, ResultCode.BAD_REQUEST, 400);

    const etag = `"pkg-${id}-${zn}-${xn}-${yn}"`;
    reply.header('cache-control', PACKAGE_TILE_CACHE_CONTROL).header('etag', etag).header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    let data: Uint8Array | null;
    try {
      const reader = readers.get(id, () => openReader(packageFile(deps.config.dataDir, row), row.container as MapPackageContainer));
      data = await reader.tile(zn, xn, yn);
    } catch (err) {
      request.log.warn({ err, package: id, z: zn, x: xn, y: yn }, 'reading a map package tile failed');
      await readers.drop(id);
      return fail(request, reply, ResultCode.SERVER_ERROR, 500);
    }
    if (!data || data.length === 0) return reply.code(204).send();
    reply.header('content-type', CONTENT_TYPES[row.format] ?? 'application/octet-stream');
    const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (row.format === 'pbf' && isGzip(body)) {
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(body);
      return reply.send(gunzipSync(body));
    }
    return reply.send(body);
  });
}

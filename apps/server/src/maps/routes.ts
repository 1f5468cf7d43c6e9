import { gunzipSync } from 'node:zlib';
import { DEFAULT_SERVICE_BASES, ResultCode, toLang } from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envelope, httpStatusOf } from '../calls/errors.js';
import type { Config } from '../config.js';
import { BASEMAP_VERSION, Basemap, DEFAULT_PREBUILD_ZOOM, basemapFile, isTileInRange } from './basemap.js';
import { registerGlyphs } from './glyphs.js';
import { basemapStyle, type StyleLang, type StyleTheme } from './style.js';

/** Where the offline basemap is served, under the zone (map) service base. */
export const BASEMAP_PREFIX = `${DEFAULT_SERVICE_BASES.zone}/tiles/basemap`;
export const BASEMAP_TILE_TEMPLATE = `${BASEMAP_PREFIX}/{z}/{x}/{y}.pbf`;
/** Tiles change only with BASEMAP_VERSION (part of the ETag): a day in caches, then revalidated. */
export const TILE_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

/** A tile coordinate: a plain decimal without sign or leading zeros, at most 4 digits (z <= 10 -> x, y < 1024). */
const COORD = /^(0|[1-9][0-9]{0,3})$/;
const TILE_FILE = /^(0|[1-9][0-9]{0,3})\.pbf$/;

export interface MapsOptions {
  /** Cut tiles up to this zoom in the background after start (-1: none). */
  prebuildZoom?: number;
}

function fail(request: FastifyRequest, reply: FastifyReply, code: number, status?: number) {
  const lang = toLang(request.headers['accept-language']);
  return reply.code(status ?? httpStatusOf(code)).header('cache-control', 'no-cache').send(envelope(code, lang));
}

/**
 * The offline basemap (see README.md here):
 *   GET {zone}/tiles/basemap/style.json[?theme=dark|light][&lang=zh|en]   the MapLibre style (labels in
 *       that language, falling back to the other; no sprite)
 *   GET {zone}/tiles/basemap/{z}/{x}/{y}.pbf                 a gzip'd Mapbox Vector Tile; 204 when empty,
 *       400 for a malformed coordinate, 404 outside z 0-10 or the 2^z grid.
 *   GET {zone}/tiles/glyphs/{fontstack}/{start}-{end}.pbf  the labels' glyphs (glyphs.ts)
 * Public (basemap data only, like any tile server), GET only.
 */
export function registerMaps(app: FastifyInstance, config: Pick<Config, 'dataDir'>, options: MapsOptions = {}): Basemap {
  const basemap = new Basemap(basemapFile(config.dataDir));
  const prebuildZoom = options.prebuildZoom ?? DEFAULT_PREBUILD_ZOOM;
  let building: Promise<void> | null = null;

  app.addHook('onReady', async () => {
    if (prebuildZoom < 0 || basemap.completeZoom >= prebuildZoom) return;
    // In the background: the server answers meanwhile (missing tiles are cut on request).
    building = basemap
      .build(prebuildZoom, { onZoom: (z, n) => app.log.debug({ z, tiles: n }, 'basemap zoom built') })
      .catch((err: unknown) => app.log.error({ err }, 'building the offline basemap failed'));
  });
  app.addHook('onClose', async () => {
    basemap.stop();
    await building;
    await basemap.close();
  });

  registerGlyphs(app, config.dataDir);

  app.get(`${BASEMAP_PREFIX}/style.json`, async (request, reply) => {
    const query = request.query as { theme?: string; lang?: string };
    const theme: StyleTheme = query.theme === 'light' ? 'light' : 'dark';
    const lang: StyleLang = query.lang === 'en' ? 'en' : 'zh';
    return reply.header('cache-control', 'no-cache').send(basemapStyle(BASEMAP_TILE_TEMPLATE, theme, lang));
  });

  app.get(`${BASEMAP_PREFIX}/:z/:x/:file`, async (request, reply) => {
    const { z, x, file } = request.params as { z: string; x: string; file: string };
    const yText = TILE_FILE.exec(file)?.[1];
    if (!COORD.test(z) || !COORD.test(x) || yText === undefined) return fail(request, reply, ResultCode.BAD_REQUEST, 400);
    const [zn, xn, yn] = [Number(z), Number(x), Number(yText)];
    if (!isTileInRange(zn, xn, yn)) return fail(request, reply, ResultCode.NO_SUCH_CALL, 404);

    const etag = `"basemap-${BASEMAP_VERSION}-${zn}-${xn}-${yn}"`;
    reply.header('cache-control', TILE_CACHE_CONTROL).header('etag', etag).header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const data = await basemap.tile(zn, xn, yn);
    if (!data) return reply.code(204).send();
    reply.header('content-type', 'application/x-protobuf');
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(data);
    return reply.send(gunzipSync(data));
  });

  return basemap;
}

import { DEFAULT_SERVICE_BASES, ResultCode, toLang } from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envelope } from '../calls/errors.js';
import type { Config } from '../config.js';
import { parseTileCoord, readTileFile, terrainDirs } from './tiles.js';

export const TERRAIN_PREFIX = `${DEFAULT_SERVICE_BASES.zone}/terrain`;
export const TERRAIN_TILE_TEMPLATE = `${TERRAIN_PREFIX}/{z}/{x}/{y}.png`;

const TILE_FILE = /^([0-9]{1,6})\.png$/;

function fail(request: FastifyRequest, reply: FastifyReply, code: number, status: number) {
  const lang = toLang(request.headers['accept-language']);
  return reply.code(status).header('cache-control', 'no-cache').send(envelope(code, lang));
}

/**
 * GET {zone}/terrain/{z}/{x}/{y}.png: a Mapbox Terrain-RGB elevation tile from DATA_DIR/terrain or the
 * bundled sample (apps/server/terrain-sample). 400 for a malformed coordinate (plain decimals only, no
 * sign, no leading zero, z <= 15, inside the 2^z grid), 404 when no tile is stored. Public, like the
 * basemap tiles.
 */
export function registerTerrainRoutes(app: FastifyInstance, config: Pick<Config, 'dataDir'>): void {
  const dirs = terrainDirs(config.dataDir);
  app.get<{ Params: { z: string; x: string; file: string } }>(`${TERRAIN_PREFIX}/:z/:x/:file`, async (request, reply) => {
    const { z, x, file } = request.params;
    const m = TILE_FILE.exec(file);
    const coord = m ? parseTileCoord(z, x, m[1]!) : null;
    if (!coord) return fail(request, reply, ResultCode.BAD_REQUEST, 400);
    const bytes = await readTileFile(dirs, coord.z, coord.x, coord.y);
    if (!bytes) return fail(request, reply, ResultCode.NO_SUCH_CALL, 404);
    return reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=86400').send(bytes);
  });
}

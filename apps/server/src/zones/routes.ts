import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { ZONE_TYPES, publicZones } from './zones.js';

export const ZONES_PATH = '/api/static/zones.json';

/**
 * GET /api/static/zones.json: contracts `zonesAnswerSchema`, `{types: [{value, label {zh, en}}], list:
 * [ZonePolygon & {name {zh, en}}]}`. Public like the other static resources: the zones are map overlays
 * (demo no-fly / restricted / work areas), not company data; routes are checked against the same list
 * when saved and before they fly. `Cache-Control: no-cache`.
 */
export function registerZoneRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'db'>): void {
  app.get(ZONES_PATH, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send({ types: ZONE_TYPES, list: await publicZones(deps.db) }),
  );
}

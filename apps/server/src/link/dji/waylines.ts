import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FinishAction, HeightType, MissionType, djiModel, type MissionPlan } from '@nest/contracts';
import { toWpmlKmz } from '@nest/formats';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.js';
import { linkHolds, signedLink } from '../../storage/links.js';

/** Where a dock downloads a route package: GET <deviceHttpBase>/dji/waylines/<flight_id>.kmz?e=..&s=.. */
export const WAYLINE_ROUTE = '/dji/waylines/:file';
const PURPOSE = 'dji-wayline';
const FLIGHT_ID = /^[A-Za-z0-9-]{1,64}$/;

export interface WaylineFile {
  url: string;
  /** Lower-case hex MD5 of the whole .kmz (the `fingerprint` of flighttask_prepare). */
  fingerprint: string;
}

/**
 * The route packages (WPML .kmz) of DJI missions: written once per flight under DATA_DIR/dji-waylines and
 * handed to the dock on a signed, expiring URL (storage/links.ts), which a dock may ask for again
 * (`flighttask_resource_get`) when it expired.
 */
export class WaylineFiles {
  private readonly dir: string;
  /** The server's listening port, known once the route's app listens. */
  private port: () => number | null = () => null;

  constructor(
    dataDir: string,
    private readonly db: Database,
    /** The HTTP base devices reach the server at (config DEVICE_HTTP_BASE); null: the listening address on loopback. */
    private readonly httpBase: string | null,
  ) {
    this.dir = path.join(dataDir, 'dji-waylines');
  }

  /** The HTTP base docks reach the server at (also the base of ota_create's firmware file_url). */
  base(): string {
    return this.httpBase ?? `http://127.0.0.1:${this.port() ?? 80}`;
  }

  /**
   * Writes the package of a route for the drone model (key "0-91-0" or console name "M3D"; an unknown model
   * gets the package's default) and answers its URL and fingerprint. Null when the route cannot be written.
   */
  async put(flightId: string, plan: MissionPlan, droneModel: string | null): Promise<WaylineFile | null> {
    if (!FLIGHT_ID.test(flightId)) return null;
    const { mission_type: missionType, height_type: heightType, finish_action: finishAction } = plan;
    if (!MissionType.has(missionType) || !HeightType.has(heightType) || !FinishAction.has(finishAction)) return null;
    const model = djiModel(droneModel);
    const waypoints = plan.waypoints.slice(plan.start_index);
    const out = toWpmlKmz(
      {
        name: plan.name,
        fences: [],
        surveys: [],
        routes: [
          {
            name: plan.name,
            mission_type: missionType,
            height_type: heightType,
            waypoints,
            settings: {
              auto_speed: plan.auto_speed,
              max_speed: plan.max_speed,
              default_height: plan.default_height,
              return_height: plan.return_height,
              finish_action: finishAction,
            },
          },
        ],
      },
      { ...(model?.drone ? { drone: model.drone } : {}), ...(model?.payload ? { payload: model.payload } : {}) },
    );
    if (!out.ok) return null;
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.fileOf(flightId), out.bytes);
    return { url: await this.url(flightId), fingerprint: createHash('md5').update(out.bytes).digest('hex') };
  }

  /** A fresh URL and the fingerprint of a stored package; null when there is none. */
  async resource(flightId: string): Promise<WaylineFile | null> {
    const bytes = await this.read(flightId);
    if (!bytes) return null;
    return { url: await this.url(flightId), fingerprint: createHash('md5').update(bytes).digest('hex') };
  }

  private url(flightId: string): Promise<string> {
    return signedLink(this.db, `${this.base().replace(/\/+$/, '')}/dji/waylines/${flightId}.kmz`, PURPOSE, flightId);
  }

  private fileOf(flightId: string): string {
    return path.join(this.dir, `${flightId}.kmz`);
  }

  private async read(flightId: string): Promise<Buffer | null> {
    if (!FLIGHT_ID.test(flightId)) return null;
    return readFile(this.fileOf(flightId)).catch(() => null);
  }

  /** The download route (registered by the composition root): 404 for anything but a live signed link. */
  route(app: FastifyInstance): void {
    this.port = () => {
      const address = app.server.address();
      return address && typeof address === 'object' ? address.port : null;
    };
    app.get<{ Params: { file: string } }>(WAYLINE_ROUTE, async (req, reply) => {
      const id = req.params.file.endsWith('.kmz') ? req.params.file.slice(0, -4) : '';
      const bytes = FLIGHT_ID.test(id) && (await linkHolds(this.db, PURPOSE, id, req.query)) ? await this.read(id) : null;
      if (!bytes) return reply.code(404).send();
      return reply.type('application/vnd.google-earth.kmz').header('cache-control', 'no-store').send(bytes);
    });
  }
}

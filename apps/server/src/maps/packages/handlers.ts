import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import {
  DEFAULT_SERVICE_BASES,
  MAP_PACKAGE_FILE_FIELD,
  MAP_PACKAGE_NAME_FORBIDDEN,
  ResultCode,
  mapPackageContainer,
  type MapPackageProblem,
} from '@nest/contracts';
import { callerOf } from '../../calls/caller.js';
import { CallError, type Message } from '../../calls/errors.js';
import type { Handlers } from '../../calls/types.js';
import { nowSeconds } from '../../db/index.js';
import type { MapPackageRow } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { scopeOf } from '../../db/scope.js';
import type { Readers } from './files.js';
import { GLYPHS_WHOLE_URL_TEMPLATE } from '../glyphs.js';
import { inspectPackage } from './inspect.js';
import { packageToken } from './links.js';
import { packageStyle } from './style.js';
import { packageFile, packagesDir, presentPackage, vectorLayersOfRow } from './store.js';
import { PACKAGE_TEXTS, problemText } from './texts.js';

const refuse = (msg: Message, code: number = ResultCode.BAD_REQUEST) => new CallError(code, msg);
const refuseProblem = (p: MapPackageProblem) => refuse(problemText(p));

/** Path of a package's tiles under the zone base: `<prefix>/<id>/<exp>.<sig>/{z}/{x}/{y}.<format>`. */
export const PACKAGE_TILES_PREFIX = `${DEFAULT_SERVICE_BASES.zone}/tiles/packages`;
/** The server's glyph endpoint, which the generated vector styles name. */

/** Moves the received file into place: a rename (DATA_DIR/tmp is on the same file system), else a copy. */
async function moveInto(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
  }
}

/**
 * Offline map package calls (zone service; maps/packages/README.md). Packages belong to the uploader's
 * company; a super administrator sees and uses every company's.
 * - /map/packageAdd: one file in part MAP_PACKAGE_FILE_FIELD named *.mbtiles or *.pmtiles, a name without
 *   path characters; the file is checked (inspect.ts) before it is moved into DATA_DIR/tiles/packages and
 *   its row written. A refusal keeps nothing (the call layer removes the received file).
 * - /map/packageList: newest first, with the uploader's name.
 * - /map/packageDelete: the row, then the file (only the call that deleted the row removes it).
 * - /map/packageStyle: the package's MapLibre style naming signed tile URLs (links.ts).
 */
export function packageHandlers(deps: AppDeps, readers: Readers): Handlers {
  const { db, config } = deps;

  async function visibleRow(ctx: { caller: Parameters<typeof callerOf>[0] }, id: string): Promise<MapPackageRow> {
    const scope = scopeOf(callerOf(ctx.caller));
    const row = await db.selectFrom('map_packages').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !(scope.all || row.company_id === scope.companyId)) throw refuse(PACKAGE_TEXTS.notFound, ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  return {
    mapPackageAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const files = ctx.files.filter((f) => f.field === MAP_PACKAGE_FILE_FIELD);
      if (files.length !== 1 || ctx.files.length !== 1) throw refuseProblem('noFile');
      const upload = files[0]!;
      const name = ctx.fields.name;
      if (MAP_PACKAGE_NAME_FORBIDDEN.test(name)) throw refuseProblem('name');
      const container = mapPackageContainer(upload.filename);
      if (!container) throw refuseProblem('extension');
      const check = await inspectPackage(upload.path, container);
      if (!check.ok) throw refuseProblem(check.problem);

      const row: MapPackageRow = {
        id: randomUUID(),
        company_id: caller.user.company_id,
        name,
        container,
        ...check.info,
        vector_layers: JSON.stringify(check.info.vector_layers),
        u_id: caller.user.u_id,
        create_time: nowSeconds(),
      };
      const file = packageFile(config.dataDir, row);
      await mkdir(packagesDir(config.dataDir), { recursive: true });
      await moveInto(upload.path, file);
      try {
        await db.insertInto('map_packages').values(row).execute();
      } catch (err) {
        await rm(file, { force: true });
        throw err;
      }
      return { data: presentPackage(row, caller.user.nick) };
    },

    mapPackageList: async (ctx) => {
      const scope = scopeOf(callerOf(ctx.caller));
      const { page, size } = ctx.fields;
      let q = db.selectFrom('map_packages');
      if (!scope.all) q = q.where('map_packages.company_id', '=', scope.companyId);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .leftJoin('users', 'users.u_id', 'map_packages.u_id')
        .selectAll('map_packages')
        .select('users.nick as u_name')
        .orderBy('map_packages.create_time', 'desc')
        .orderBy('map_packages.id')
        .limit(size)
        .offset(page * size)
        .execute();
      return { data: { list: rows.map(({ u_name, ...row }) => presentPackage(row, u_name)), total } };
    },

    mapPackageDelete: async (ctx) => {
      const row = await visibleRow(ctx, ctx.fields.id);
      const done = await db.deleteFrom('map_packages').where('id', '=', row.id).executeTakeFirst();
      // Two deletes at once: only the one that removed the row removes the file.
      if (Number(done.numDeletedRows) === 1) {
        await readers.drop(row.id);
        await rm(packageFile(config.dataDir, row), { force: true });
      }
      return { data: { id: row.id } };
    },

    mapPackageStyle: async (ctx) => {
      const row = await visibleRow(ctx, ctx.fields.id);
      const token = await packageToken(db, row.id, nowSeconds());
      const style = packageStyle(
        {
          name: row.name,
          kind: row.kind === 'vector' ? 'vector' : 'raster',
          min_zoom: row.min_zoom,
          max_zoom: row.max_zoom,
          bounds: [row.min_lng, row.min_lat, row.max_lng, row.max_lat],
          attribution: row.attribution,
          vector_layers: vectorLayersOfRow(row),
        },
        // Package labels can be any text: the glyphs of the whole font (each range drawn on first use).
        { tiles: `${PACKAGE_TILES_PREFIX}/${row.id}/${token}/{z}/{x}/{y}.${row.format}`, glyphs: GLYPHS_WHOLE_URL_TEMPLATE },
        ctx.fields.theme,
        ctx.lang,
      );
      return { data: style };
    },
  };
}

import { randomUUID } from 'node:crypto';
import { FIRMWARE_FILE_FIELD, ResultCode, isFirmwareFileName, type Lang } from '@nest/contracts';
import { sql } from 'kysely';
import { callerOf } from '../calls/caller.js';
import { CallError } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { isUniqueViolation, likePattern } from '../db/sql.js';
import { checkPackage, firmwareKey } from './files.js';
import { ROM_DELETED, ROM_LIVE, findLiveFirmware, presentFirmware, type FirmwareRow } from './store.js';
import { FIRMWARE_TEXTS, problemText } from './texts.js';

const refuse = (msg: (lang: Lang) => string, code: number = ResultCode.BAD_REQUEST) => new CallError(code, msg);

/**
 * Firmware packages (menu firmware). Like the device-type catalogue, packages are system data, not a
 * company's: nests of every company are flashed from the same list, managed by whoever holds rom_add /
 * rom_edit (see README.md for the file checks, storage and downloads).
 * - /rom/add: exactly one file in part FIRMWARE_FILE_FIELD, named *.wkimg, whose content is a whole .wkimg
 *   package (structure, length, payload SHA-256) of the form's type and version_code; one live package per
 *   (type, version_code) (partial unique index, so also between instances). Nothing is kept on refusal.
 * - /rom/edit: texts; state 20 deletes the package and removes its file.
 * - /rom/list: live packages by default (state 20 lists the deleted ones), newest first.
 */
export function firmwareHandlers(deps: AppDeps): Handlers {
  const { db, config } = deps;
  const deviceBase = config.bases.device;

  async function liveRow(id: string): Promise<FirmwareRow> {
    const row = await findLiveFirmware(db, id);
    if (!row) throw refuse(FIRMWARE_TEXTS.notFound, ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  const liveVersion = (type: number, code: number) =>
    db.selectFrom('firmware').select('id').where('type', '=', type).where('version_code', '=', code).where('state', '=', ROM_LIVE).executeTakeFirst();

  return {
    romList: async (ctx) => {
      const { type, state, search, page, size } = ctx.fields;
      let q = db.selectFrom('firmware').where('state', '=', state ?? ROM_LIVE);
      if (type !== undefined) q = q.where('type', '=', type);
      if (search) {
        const pattern = sql<string>`${likePattern(search)} escape '\\'`;
        q = q.where((eb) =>
          eb.or(
            ['version_name', 'description', 'description_en', 'file_name'].map((c) => eb(sql<string>`lower(${sql.ref(c)})`, 'like', pattern)),
          ),
        );
      }
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('create_time', 'desc').orderBy('version_code', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      return { data: { list: await Promise.all(rows.map((r) => presentFirmware(db, deviceBase, r))), total } };
    },

    romAdd: async (ctx) => {
      const f = ctx.fields;
      const files = ctx.files.filter((x) => x.field === FIRMWARE_FILE_FIELD);
      if (files.length !== 1 || ctx.files.length !== 1) throw refuse(FIRMWARE_TEXTS.noFile);
      const upload = files[0]!;
      if (!isFirmwareFileName(upload.filename)) throw refuse(FIRMWARE_TEXTS.wrongName);
      const check = await checkPackage(upload.path);
      if (!check.ok) throw refuse(problemText(check.problem));
      if (check.header.type !== f.type) throw refuse(FIRMWARE_TEXTS.typeMismatch(check.header.type, f.type));
      if (check.header.version_code !== f.version_code) throw refuse(FIRMWARE_TEXTS.versionMismatch(check.header.version_code, f.version_code));
      // Asked first for a quick answer; the index below is what really decides.
      if (await liveVersion(f.type, f.version_code)) throw refuse(FIRMWARE_TEXTS.taken(f.type, f.version_code));

      const now = nowSeconds();
      const row: FirmwareRow = {
        id: randomUUID(),
        type: f.type,
        version_code: f.version_code,
        version_name: f.version_name,
        state: ROM_LIVE,
        description: f.description,
        description_en: f.description_en,
        file_key: `${randomUUID()}.wkimg`,
        file_name: upload.filename.slice(-255),
        size: check.size,
        md5: check.md5,
        sha256: check.sha256,
        u_id: callerOf(ctx.caller).user.u_id,
        create_time: now,
        modified_time: now,
      };
      const key = firmwareKey(row.file_key);
      // Local store: DATA_DIR/tmp and DATA_DIR/firmware share a file system, so a rename, not a copy.
      // A full store throws here, before there is a row (the call answers storage full).
      await deps.media.putFile(key, upload.path, { move: true, contentType: 'application/octet-stream' });
      try {
        await db.insertInto('firmware').values(row).execute();
      } catch (err) {
        await deps.media.delete(key);
        if (isUniqueViolation(err)) throw refuse(FIRMWARE_TEXTS.taken(f.type, f.version_code));
        throw err;
      }
      return { data: await presentFirmware(db, deviceBase, row) };
    },

    romEdit: async (ctx) => {
      const f = ctx.fields;
      const current = await liveRow(f.id);
      const now = nowSeconds();
      if (f.state === ROM_DELETED) {
        const done = await db
          .updateTable('firmware')
          .set({ state: ROM_DELETED, modified_time: now })
          .where('id', '=', current.id)
          .where('state', '=', ROM_LIVE)
          .executeTakeFirst();
        // Only the call that deleted the row removes the file (two deletes at once: one wins).
        if (Number(done.numUpdatedRows) === 1) await deps.media.delete(firmwareKey(current.file_key));
        return { data: await presentFirmware(db, deviceBase, { ...current, state: ROM_DELETED, modified_time: now }) };
      }
      const patch = { version_name: f.version_name, description: f.description, description_en: f.description_en, modified_time: now };
      await db.updateTable('firmware').set(patch).where('id', '=', current.id).execute();
      return { data: await presentFirmware(db, deviceBase, { ...current, ...patch }) };
    },
  };
}

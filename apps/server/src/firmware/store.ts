import type { Firmware } from '@nest/contracts';
import type { Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { FirmwareTable } from '../db/schema.js';
import { signedLink } from '../storage/links.js';

export type FirmwareRow = Selectable<FirmwareTable>;

export const ROM_LIVE = 10;
export const ROM_DELETED = 20;
/** Purpose of the administrators' signed download links. */
export const DOWNLOAD_PURPOSE = 'rom';

/** The device service path of the administrators' download (signed link). */
export const downloadPath = (deviceBase: string, id: string): string => `${deviceBase}/rom/download/${encodeURIComponent(id)}`;

export async function presentFirmware(db: Database, deviceBase: string, r: FirmwareRow): Promise<Firmware> {
  const live = Number(r.state) === ROM_LIVE;
  return {
    id: r.id,
    type: Number(r.type),
    version_code: Number(r.version_code),
    version_name: r.version_name,
    state: Number(r.state) as Firmware['state'],
    description: r.description,
    description_en: r.description_en,
    file_name: r.file_name,
    // Exact (bytes / 1024): the console shows small packages in bytes, not as '0 KB'.
    size_kb: Number(r.size) / 1024,
    md5: r.md5,
    sha256: r.sha256,
    url: live ? await signedLink(db, downloadPath(deviceBase, r.id), DOWNLOAD_PURPOSE, r.id) : '',
    create_time: Number(r.create_time),
    modified_time: Number(r.modified_time),
  };
}

/** The live package with this id, or undefined. */
export async function findLiveFirmware(db: Database, id: string): Promise<FirmwareRow | undefined> {
  return db.selectFrom('firmware').selectAll().where('id', '=', id).where('state', '=', ROM_LIVE).executeTakeFirst();
}

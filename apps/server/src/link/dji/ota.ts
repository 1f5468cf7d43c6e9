import { z } from 'zod';
import { DjiMethod, DjiResult, upgradeCommandData, type MaintProgressEvent } from '@nest/contracts';
import type { ServiceCall } from './debug.js';

/** firmware_upgrade_type of ota_create: 2 a normal upgrade (3 is the consistency upgrade a dock asks for itself). */
export const OTA_NORMAL_UPGRADE = 2;

export type OtaResult =
  | { status: 'ok'; attempts: number; output: unknown }
  | { status: 'failed'; code: number; message: string; attempts: number }
  | { status: 'timeout' };

/**
 * `maint.upgrade` for a DJI dock: one `ota_create` for the dock itself (its sn), with the catalogue package
 * on a signed, expiring URL (the device HTTP base + the command's `link`), its MD5, size and name; bid = the
 * operation id, which the dock's ota_progress events echo (otaProgressOf). The dock's reply only accepts the
 * job: the operation stays running until ota_progress reports its end.
 */
export async function runOta(data: unknown, ctx: { sn: string; httpBase: string | null }, call: ServiceCall): Promise<OtaResult> {
  const parsed = upgradeCommandData.safeParse(data);
  if (!parsed.success || !parsed.data.link || !parsed.data.md5) {
    return { status: 'failed', code: DjiResult.BAD_PARAMETER, message: 'the package has no signed link or MD5', attempts: 0 };
  }
  if (!ctx.httpBase) return { status: 'failed', code: DjiResult.BAD_PARAMETER, message: 'no HTTP base devices reach the server at', attempts: 0 };
  const d = parsed.data;
  const device = {
    sn: ctx.sn,
    product_version: d.version_name,
    file_url: `${ctx.httpBase.replace(/\/+$/, '')}${d.link}`,
    md5: d.md5,
    file_size: d.size,
    file_name: d.file_name ?? `${d.version_name}.bin`,
    firmware_upgrade_type: OTA_NORMAL_UPGRADE,
  };
  const r = await call(DjiMethod.OTA_CREATE, { devices: [device] }, d.op_id);
  if (!r) return { status: 'timeout' };
  if (r.result !== 0) return { status: 'failed', code: r.result, message: 'firmware update refused by the device', attempts: r.attempts };
  return { status: 'ok', attempts: r.attempts, output: r.output ?? {} };
}

/** ota_progress: `{result, output: {status, progress: {percent, current_step 1 download / 2 upgrade}, ext}}`, read leniently. */
const otaProgress = z.looseObject({
  result: z.number().int().catch(0),
  output: z.looseObject({
    status: z.string().catch('in_progress'),
    progress: z.looseObject({ percent: z.number().catch(0), current_step: z.number().optional().catch(undefined) }).optional().catch(undefined),
  }),
});

/** Statuses of ota_progress that end the job without success. */
const FAILED_STATUSES = new Set(['failed', 'canceled', 'rejected', 'timeout']);

/**
 * A dock's ota_progress (bid = the operation id) as `maint.progress` of the upgrade: downloading (step 1) or
 * installing (step 2) with its percent, `ok` at the end (the new version arrives with the dock's state), or
 * `failed` with the event's DJI result code (e.g. 312003 the package did not verify). Null for other events.
 */
export function otaProgressOf(method: string, bid: string, data: unknown): MaintProgressEvent | null {
  if (method !== DjiMethod.OTA_PROGRESS || !/^[\x21-\x7e]{1,64}$/.test(bid)) return null;
  const parsed = otaProgress.safeParse(data ?? {});
  if (!parsed.success) return null;
  const { result, output } = parsed.data;
  const percent = Math.max(0, Math.min(100, Math.round(output.progress?.percent ?? 0)));
  const stage = output.progress?.current_step === 2 ? 'install' : 'download';
  if (output.status === 'ok' && result === 0) return { op_id: bid, kind: 'upgrade', state: 'ok', progress: 100, stage: 'done' };
  if (FAILED_STATUSES.has(output.status) || result !== 0) {
    return { op_id: bid, kind: 'upgrade', state: 'failed', progress: percent, stage, ...(result !== 0 ? { failure: result } : {}) };
  }
  return { op_id: bid, kind: 'upgrade', state: 'running', progress: Math.min(percent, 99), stage };
}

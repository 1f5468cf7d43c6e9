import { z } from 'zod';
import { DjiMethod, DjiResult, debugCommandData, type DebugActionValue, type MaintProgressEvent } from '@nest/contracts';

/** The DJI service of each remote-debug action. */
export const DEBUG_SERVICE: Readonly<Record<DebugActionValue, string>> = {
  cover_open: DjiMethod.COVER_OPEN,
  cover_close: DjiMethod.COVER_CLOSE,
  drone_on: DjiMethod.DRONE_OPEN,
  drone_off: DjiMethod.DRONE_CLOSE,
  charge_on: DjiMethod.CHARGE_OPEN,
  charge_off: DjiMethod.CHARGE_CLOSE,
  reboot: DjiMethod.DEVICE_REBOOT,
};

/** A DJI service call's answer (null: no reply after the re-sends); `bid` defaults to a fresh one. */
export type ServiceCall = (method: string, data: unknown, bid?: string) => Promise<{ result: number; output?: unknown; attempts: number } | null>;

export type DebugResult =
  | { status: 'ok'; attempts: number; output: unknown }
  | { status: 'failed'; code: number; message: string; attempts: number }
  | { status: 'timeout' };

/**
 * `maint.debug`: debug_mode_open, the action's service, then debug_mode_close. Debug mode is closed after
 * every action, also a refused one, so a dock is never left in debug mode (mode_code 2) where it takes no
 * flight task; a reboot leaves debug mode by itself, so none is closed after it. The action's own answer
 * decides the result; a failing debug_mode_close is not reported over it.
 */
export async function runDebug(data: unknown, call: ServiceCall): Promise<DebugResult> {
  const parsed = debugCommandData.safeParse(data);
  if (!parsed.success) return { status: 'failed', code: DjiResult.BAD_PARAMETER, message: 'invalid command data', attempts: 0 };
  const open = await call(DjiMethod.DEBUG_MODE_OPEN, {});
  if (!open) return { status: 'timeout' };
  if (open.result !== 0) return { status: 'failed', code: open.result, message: 'debug mode refused by the device', attempts: open.attempts };
  const action = parsed.data.action;
  // The action's bid is the operation id: the dock's progress events echo it (debugProgressOf).
  const r = await call(DEBUG_SERVICE[action], {}, parsed.data.op_id);
  if (action !== 'reboot' || !r || r.result !== 0) await call(DjiMethod.DEBUG_MODE_CLOSE, {});
  if (!r) return { status: 'timeout' };
  if (r.result !== 0) return { status: 'failed', code: r.result, message: 'refused by the device', attempts: r.attempts };
  // A reboot reports no progress (the dock drops and comes back); the moving actions do, by events.
  const output = typeof r.output === 'object' && r.output !== null ? r.output : {};
  return { status: 'ok', attempts: r.attempts, output: { ...output, progress: action !== 'reboot' } };
}

/** DJI services whose events report the progress of a debug action (the reboot has none). */
const PROGRESS_ACTIONS = new Map<string, DebugActionValue>(
  (Object.entries(DEBUG_SERVICE) as [DebugActionValue, string][]).filter(([a]) => a !== 'reboot').map(([a, m]) => [m, a]),
);

/** Statuses of a remote-debug event that end the action (DJI: sent, in_progress and paused do not). */
const FAILED_STATUSES = new Set(['failed', 'canceled', 'rejected', 'timeout']);

/** A remote-debug progress event: `{result, output: {status, progress: {percent, step_key}}}`, read leniently. */
const debugEvent = z.looseObject({
  result: z.number().int().catch(0),
  output: z.looseObject({
    status: z.string().catch('in_progress'),
    progress: z.looseObject({ percent: z.number().catch(0), step_key: z.string().max(64).optional().catch(undefined) }).optional().catch(undefined),
  }),
});

/**
 * The dock's event of a running debug action (method = the action's service, bid = the operation id) as
 * `maint.progress` of that operation: in progress with its percent, `ok` at the end, `failed` with the
 * event's DJI result code (the operation reads that code's text). Null for any other event.
 */
export function debugProgressOf(method: string, bid: string, data: unknown): MaintProgressEvent | null {
  if (!PROGRESS_ACTIONS.has(method) || !/^[\x21-\x7e]{1,64}$/.test(bid)) return null;
  const parsed = debugEvent.safeParse(data ?? {});
  if (!parsed.success) return null;
  const { result, output } = parsed.data;
  const percent = Math.max(0, Math.min(100, Math.round(output.progress?.percent ?? 0)));
  const step = output.progress?.step_key;
  if (output.status === 'ok' && result === 0) return { op_id: bid, kind: 'debug', state: 'ok', progress: 100, stage: 'done' };
  if (FAILED_STATUSES.has(output.status) || result !== 0) {
    return { op_id: bid, kind: 'debug', state: 'failed', progress: percent, ...(result !== 0 ? { failure: result } : {}), ...(step ? { message: step } : {}) };
  }
  return { op_id: bid, kind: 'debug', state: 'running', progress: Math.min(percent, 99), ...(step ? { message: step } : {}) };
}

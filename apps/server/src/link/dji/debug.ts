import { DjiMethod, DjiResult, debugCommandData, type DebugActionValue } from '@nest/contracts';

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

/** A DJI service call's answer (null: no reply after the re-sends). */
export type ServiceCall = (method: string, data: unknown) => Promise<{ result: number; output?: unknown; attempts: number } | null>;

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
  const r = await call(DEBUG_SERVICE[action], {});
  if (action !== 'reboot' || !r || r.result !== 0) await call(DjiMethod.DEBUG_MODE_CLOSE, {});
  if (!r) return { status: 'timeout' };
  if (r.result !== 0) return { status: 'failed', code: r.result, message: 'refused by the device', attempts: r.attempts };
  return { status: 'ok', attempts: r.attempts, output: r.output ?? {} };
}

import {
  CmdType,
  FlightMethod,
  FlightMode,
  GimbalAction,
  NavigationAction,
  ONE_KEY_TAKEOFF_HEIGHT,
  Reason,
  cameraSettingsPatch,
  gimbalCommandData,
  modeCommandData,
  zoomCommandData,
  type ControlCommandData,
} from '@nest/contracts';

/** What a 401 command needs checked before it is sent. */
export type Needs = 'all' | 'basic' | 'air';

/** A device command built from a 401, or the CommandReason refusing its values. */
export type Built =
  | { ok: true; method: string; data: Record<string, unknown>; needs: Needs; physical: boolean }
  | { ok: false; reason: number };

/** Attitude mode exists on the drone but cannot be chosen from the console (protocol 9.1). */
export const UNSELECTABLE_MODE: number = FlightMode.ATTITUDE;

const bad = (): Built => ({ ok: false, reason: Reason.BAD_VALUE });
const onOff = (action: number): boolean | null => (action === 1 ? true : action === 0 ? false : null);

/**
 * Maps the simple 401 cmd_types to their FlightMethod command. Navigation (8) needs the route and the
 * device's state and is built by the runtime; stick frames (5) are not commands. `physical` commands move
 * the drone or the nest and are sent once, never re-sent (protocol 9.1).
 */
export function buildCommand(d: ControlCommandData): Built {
  const num = typeof d.value === 'number' ? d.value : Number(d.value);
  switch (d.cmd_type) {
    case CmdType.TAKEOFF: {
      if (!Number.isFinite(num) || num < 0 || num > 1500) return bad();
      // value 0 = the default height.
      return { ok: true, method: FlightMethod.TAKEOFF, data: { mission: null, height: num > 0 ? num : ONE_KEY_TAKEOFF_HEIGHT }, needs: 'all', physical: true };
    }
    case CmdType.LAND:
      return { ok: true, method: FlightMethod.LAND, data: {}, needs: 'air', physical: true };
    case CmdType.RETURN:
      return { ok: true, method: FlightMethod.RETURN, data: {}, needs: 'air', physical: false };
    case CmdType.LAND_HERE:
      return { ok: true, method: FlightMethod.LAND_HERE, data: {}, needs: 'air', physical: false };
    case CmdType.FLIGHT_MODE: {
      const parsed = modeCommandData.safeParse({ mode: num });
      if (!parsed.success || num === UNSELECTABLE_MODE) return bad();
      return { ok: true, method: FlightMethod.MODE, data: parsed.data, needs: 'air', physical: false };
    }
    case CmdType.STICK_MODE: {
      const on = onOff(d.action_cmd);
      if (on === null) return bad();
      // Leaving stick mode must always be possible, even if the drone just landed.
      return { ok: true, method: FlightMethod.STICK_MODE, data: { on }, needs: on ? 'air' : 'basic', physical: false };
    }
    case CmdType.GIMBAL: {
      const data =
        d.action_cmd === GimbalAction.PITCH ? { pitch: num } : d.action_cmd === GimbalAction.YAW ? { yaw: num } : d.action_cmd === GimbalAction.RESET ? { reset: true } : null;
      const parsed = data ? gimbalCommandData.safeParse(data) : null;
      if (!parsed?.success) return bad();
      return { ok: true, method: FlightMethod.GIMBAL, data: parsed.data, needs: 'basic', physical: false };
    }
    case CmdType.ZOOM: {
      const parsed = zoomCommandData.safeParse({ zoom: num });
      if (!parsed.success) return bad();
      return { ok: true, method: FlightMethod.ZOOM, data: parsed.data, needs: 'basic', physical: false };
    }
    case CmdType.CAMERA: {
      const parsed = cameraSettingsPatch.safeParse(d.settings ?? {});
      if (!parsed.success) return bad();
      return { ok: true, method: FlightMethod.CAMERA_SET, data: parsed.data, needs: 'basic', physical: false };
    }
    case CmdType.PHOTO:
      return { ok: true, method: FlightMethod.PHOTO, data: {}, needs: 'basic', physical: false };
    case CmdType.RECORD: {
      const on = onOff(d.action_cmd);
      if (on === null) return bad();
      return { ok: true, method: FlightMethod.RECORD, data: { on }, needs: 'basic', physical: false };
    }
    default:
      return bad();
  }
}

/** cmd_type 8: the route id (value) and start / resume (action), or null when the values are wrong. */
export function navigationOf(d: ControlCommandData): { missionId: string; resume: boolean } | null {
  const missionId = String(d.value);
  if (!missionId || missionId === '0') return null;
  if (d.action_cmd !== NavigationAction.START && d.action_cmd !== NavigationAction.RESUME) return null;
  return { missionId, resume: d.action_cmd === NavigationAction.RESUME };
}

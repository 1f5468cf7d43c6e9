import { DEFAULT_CAMERA_SETTINGS, cameraSettingsSchema, type CameraSettings, type CameraSettingsPatch, type DroneTelemetry } from '@nest/contracts';

/**
 * The camera settings to show: the device's reported full set when there is one, else the defaults with what
 * the telemetry reports (ISO, shutter, exposure, white balance) laid over them.
 */
export function reportedSettings(drone: DroneTelemetry | undefined, reported?: unknown): CameraSettings {
  const full = cameraSettingsSchema.safeParse(reported);
  if (full.success) return full.data;
  const c = drone?.camera;
  if (!c) return { ...DEFAULT_CAMERA_SETTINGS };
  const merged = {
    ...DEFAULT_CAMERA_SETTINGS,
    iso: c.camera_iso,
    shutter: c.camera_shutter,
    exp_mode: c.camera_exp_mode,
    exp_value: c.camera_exp_value,
    awb: c.camera_awb,
  };
  // A telemetry value outside the options (an older firmware) falls back to the default for that key.
  const checked = cameraSettingsSchema.safeParse(merged);
  if (checked.success) return checked.data;
  const bad = new Set(checked.error.issues.map((i) => String(i.path[0])));
  return Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, bad.has(k) ? DEFAULT_CAMERA_SETTINGS[k as keyof CameraSettings] : v])) as CameraSettings;
}

/** Only the keys whose value differs from the device's (what a 401 cmd_type 9 carries); null when none. */
export function changedSettings(base: CameraSettings, next: Partial<CameraSettings>): CameraSettingsPatch | null {
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) {
    if (v !== undefined && base[k as keyof CameraSettings] !== v) patch[k] = v;
  }
  return Object.keys(patch).length > 0 ? (patch as CameraSettingsPatch) : null;
}

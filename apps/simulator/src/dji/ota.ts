import { createHash } from 'node:crypto';
import { DockMode } from './protocol.js';

/** DJI firmware result codes the emulated dock answers (FirmwareErrorCodeEnum, 312xxx). */
export const OtaCode = {
  ok: 0,
  /** The downloaded package did not verify (MD5 or size). */
  validationFailed: 312003,
  /** Parameters missing or wrong. */
  wrongParameter: 312012,
  /** An upgrade runs already. */
  updating: 312014,
  /** No upgrade during a flight. */
  inFlight: 312015,
} as const;

/** current_step of ota_progress. */
const Step = { download: 1, upgrade: 2 } as const;

/** What the OTA bench reads and changes on its dock. */
export interface OtaHost {
  /** The dock's and its drone's serial numbers. */
  sns(): { dock: string; drone: string };
  mode(): number;
  setMode(mode: number): void;
  /** True while a flight task runs. */
  busy(): boolean;
  /** The device's firmware_version becomes `version` (sent in its state). */
  setFirmware(device: 'dock' | 'drone', version: string): void;
  /** An ota_progress event with this bid: `{result, output: {status, progress: {percent, current_step}, ext: {rate}}}`. */
  progress(bid: string, result: number, status: 'in_progress' | 'ok' | 'failed', percent: number, step: number): void;
  /** Waits this many simulated seconds. */
  wait(simSeconds: number): Promise<void>;
  log(line: string): void;
}

interface OtaDevice {
  sn: string;
  product_version: string;
  file_url: string;
  md5: string;
  file_size: number;
}

/** Simulated seconds of the install step. */
const INSTALL_S = 6;

function otaDevice(data: Record<string, unknown>): OtaDevice | null {
  const devices = Array.isArray(data.devices) ? (data.devices as unknown[]) : [];
  const d = devices[0];
  if (devices.length !== 1 || !d || typeof d !== 'object') return null;
  const r = d as Record<string, unknown>;
  const ok =
    typeof r.sn === 'string' &&
    typeof r.product_version === 'string' &&
    r.product_version.length > 0 &&
    typeof r.file_url === 'string' &&
    /^https?:\/\//.test(r.file_url) &&
    typeof r.md5 === 'string' &&
    /^[0-9a-f]{32}$/.test(r.md5) &&
    typeof r.file_size === 'number' &&
    r.file_size > 0 &&
    (r.firmware_upgrade_type === 2 || r.firmware_upgrade_type === 3);
  return ok ? { sn: r.sn as string, product_version: r.product_version as string, file_url: r.file_url as string, md5: r.md5 as string, file_size: r.file_size as number } : null;
}

/**
 * Firmware updates of the emulated dock (DJI Cloud API `ota_create`): answered at once with
 * `{status: in_progress}`, then mode_code 3 while it downloads the file (ota_progress step 1), checks its size
 * and MD5 (a mismatch ends it failed with 312003), installs (step 2) and reports the new firmware_version
 * in its state before the final `ok`. Refused: during a flight (312015), while one runs (312014), with
 * missing parameters or a device that is not its dock or drone (312012).
 */
export class OtaBench {
  constructor(private readonly host: OtaHost) {}

  execute(method: string, bid: string, data: Record<string, unknown>): { result: number; output?: unknown } | undefined {
    if (method !== 'ota_create') return undefined;
    const device = otaDevice(data);
    const sns = this.host.sns();
    if (!device || (device.sn !== sns.dock && device.sn !== sns.drone)) return { result: OtaCode.wrongParameter };
    if (this.host.busy()) return { result: OtaCode.inFlight };
    if (this.host.mode() === DockMode.upgrading) return { result: OtaCode.updating };
    this.host.setMode(DockMode.upgrading);
    void this.run(device, bid).finally(() => this.host.setMode(DockMode.idle));
    return { result: OtaCode.ok, output: { status: 'in_progress' } };
  }

  private async run(device: OtaDevice, bid: string): Promise<void> {
    this.host.progress(bid, 0, 'in_progress', 0, Step.download);
    const bytes = await this.download(device.file_url);
    const md5 = bytes ? createHash('md5').update(bytes).digest('hex') : '';
    if (!bytes || bytes.length !== device.file_size || md5 !== device.md5) {
      this.host.log(`dji ota ${device.sn}: package refused (${bytes ? `${bytes.length} bytes, md5 ${md5}` : 'download failed'})`);
      this.host.progress(bid, OtaCode.validationFailed, 'failed', 50, Step.download);
      return;
    }
    this.host.progress(bid, 0, 'in_progress', 50, Step.upgrade);
    await this.host.wait(INSTALL_S / 2);
    this.host.progress(bid, 0, 'in_progress', 75, Step.upgrade);
    await this.host.wait(INSTALL_S / 2);
    this.host.setFirmware(device.sn === this.host.sns().dock ? 'dock' : 'drone', device.product_version);
    this.host.progress(bid, 0, 'ok', 100, Step.upgrade);
  }

  private async download(url: string): Promise<Buffer | null> {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) {
        this.host.log(`dji ota: download ${url}: HTTP ${res.status}`);
        return null;
      }
      return Buffer.from(await res.arrayBuffer());
    } catch (e) {
      this.host.log(`dji ota: download ${url}: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }
}

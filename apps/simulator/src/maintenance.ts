import { createHash } from 'node:crypto';
import {
  CALIBRATION_ITEMS,
  MaintFail,
  MaintenanceMethod,
  NEST_FIRMWARE_TYPE,
  azimuthCommandData,
  beaconCommandData,
  calibrateCommandData,
  logCommandData,
  rtkCommandData,
  upgradeCommandData,
  type Beacon,
  type CalibrateCommandData,
  type CalibrationResults,
  type LogCommandData,
  type MaintProgressEvent,
  type RtkCommandData,
  type UpgradeCommandData,
} from '@nest/contracts';
import { parseWkimg } from '@nest/formats';

/**
 * The simulated device's maintenance (docs/device-protocol.md section 10): firmware upgrade over HTTP with
 * .wkimg and sha256 checks and a reboot, sensor calibration, beacon / azimuth settings, the RTK caster walk
 * through the Ntrip states, and the nest log upload. Durations are in model seconds (divided by the time
 * scale). Faults of its own make the outcomes abnormal on demand (`fault.inject` with a MAINT_FAULT).
 */

/** Faults only maintenance looks at: an abnormal IMU (gyroscope + accelerometer) or compass. */
export type MaintFault = 'imu_fault' | 'compass_fault';
export const MAINT_FAULTS: readonly MaintFault[] = ['imu_fault', 'compass_fault'];
export const isMaintFault = (v: unknown): v is MaintFault => typeof v === 'string' && (MAINT_FAULTS as readonly string[]).includes(v);

/** Model seconds of each phase. */
export const MAINT_TIMING = { calibrateItem: 4, install: 6, reboot: 4, rtkStep: 2, pack: 2 } as const;

/** A caster host that cannot be reached: `invalid`, `*.invalid` (RFC 2606), `unreachable*`. */
export const unreachableCaster = (url: string): boolean => {
  const host = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/:]/)[0]!.toLowerCase();
  return host === 'invalid' || host.endsWith('.invalid') || host.startsWith('unreachable');
};

export interface MaintenanceHost {
  readonly sn: string;
  readonly password: string;
  readonly kind: 'stable' | 'stable_mini' | 'mobile' | 'alone';
  /** Server base URL for HTTP (firmware download, log upload); null: no HTTP, those operations fail. */
  readonly httpBase: string | null;
  readonly timeScale: number;
  /** Sends an event (re-sent until acknowledged). */
  event(method: string, data: unknown): void;
  /** Something in the state snapshot changed. */
  stateChanged(): void;
  /** In the air, or a flow / mission runs. */
  busy(): boolean;
  /** RTK lost (the rtk_loss fault): a caster cannot help. */
  rtkLost(): boolean;
  setRtk(status: number, ntrip: number): void;
  /** Drops the link and comes back after `ms` (a reboot). */
  reboot(ms: number): void;
  /** Recent log lines of the device (for the uploaded log). */
  logLines(): string[];
  log(line: string): void;
}

export interface MaintOutcome {
  result: number;
  message: string;
  output?: unknown;
}

export class SimMaintenance {
  firmware: string;
  azimuth = -1;
  beacon: Beacon | null = null;
  rtk: { url: string; port: number; mount_point: string; user: string } | null = null;
  readonly faults = new Set<MaintFault>();
  /** Running operation per kind (one at a time, as the server also enforces). */
  private readonly running = new Map<string, string>();
  private stopped = false;

  constructor(
    private readonly host: MaintenanceHost,
    firmware: string,
  ) {
    this.firmware = firmware;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Facts for the state snapshot (`maintenance`). */
  snapshot(): { firmware: string; azimuth: number; beacon: Beacon | null; rtk: SimMaintenance['rtk']; running: string[] } {
    return { firmware: this.firmware, azimuth: this.azimuth, beacon: this.beacon, rtk: this.rtk, running: [...this.running.keys()].sort() };
  }

  /** A maintenance command, or null when the method is not one. */
  execute(method: string, data: unknown): MaintOutcome | null {
    switch (method) {
      case MaintenanceMethod.UPGRADE:
        return this.withData(upgradeCommandData, data, (d) => this.begin('upgrade', d.op_id, true, () => this.upgrade(d)));
      case MaintenanceMethod.CALIBRATE:
        return this.withData(calibrateCommandData, data, (d) => this.begin('calibrate', d.op_id, true, () => this.calibrate(d)));
      case MaintenanceMethod.RTK:
        return this.withData(rtkCommandData, data, (d) => this.begin('rtk', d.op_id, false, () => this.connectRtk(d)));
      case MaintenanceMethod.LOG:
        if (this.host.kind === 'alone') return { result: 1, message: 'no nest log on a drone' };
        return this.withData(logCommandData, data, (d) => this.begin('log', d.op_id, false, () => this.uploadLog(d)));
      case MaintenanceMethod.BEACON:
        return this.withData(beaconCommandData, data, (d) => {
          this.beacon = d.beacon;
          this.host.stateChanged();
          return { result: 0, message: 'beacon set' };
        });
      case MaintenanceMethod.AZIMUTH:
        return this.withData(azimuthCommandData, data, (d) => {
          this.azimuth = d.azimuth;
          this.host.stateChanged();
          return { result: 0, message: 'azimuth set' };
        });
      default:
        return null;
    }
  }

  private withData<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, data: unknown, run: (d: T) => MaintOutcome): MaintOutcome {
    const r = schema.safeParse(data ?? {});
    if (!r.success) return { result: 3, message: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 256) };
    return run(r.data);
  }

  /** Refuses when busy, else answers ok at once and runs the operation in the background. */
  private begin(kind: string, opId: string, groundOnly: boolean, run: () => Promise<void>): MaintOutcome {
    if (this.running.has(kind)) return { result: MaintFail.BUSY, message: `${kind} already running`, output: { failure: MaintFail.BUSY } };
    if (groundOnly && this.host.busy()) return { result: MaintFail.FLYING, message: 'in the air or on a mission', output: { failure: MaintFail.FLYING } };
    this.running.set(kind, opId);
    this.host.stateChanged();
    // After the reply has gone out (the device handler publishes it synchronously after execute).
    setTimeout(() => {
      run()
        .catch((err: unknown) => this.host.log(`${this.host.sn}: ${kind} failed: ${String(err)}`))
        .finally(() => {
          this.running.delete(kind);
          this.host.stateChanged();
        });
    }, 0);
    return { result: 0, message: `${kind} started` };
  }

  private progress(e: MaintProgressEvent): void {
    if (!this.stopped) this.host.event(MaintenanceMethod.PROGRESS, e);
  }

  private wait(modelSeconds: number): Promise<void> {
    const ms = Math.max(50, (modelSeconds * 1000) / Math.max(0.1, this.host.timeScale));
    return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
  }

  private auth(): string {
    return `Basic ${Buffer.from(`${this.host.sn}:${this.host.password}`).toString('base64')}`;
  }

  // ---------------------------------------------------------------------------------------- upgrade

  private async upgrade(d: UpgradeCommandData): Promise<void> {
    const base = { op_id: d.op_id, kind: 'upgrade' as const };
    const fail = (failure: number, message: string, progress: number): void =>
      this.progress({ ...base, state: 'failed', progress, stage: 'download', failure, message });
    if (!this.host.httpBase) return fail(MaintFail.DOWNLOAD, 'no server address for downloads', 0);
    this.progress({ ...base, state: 'running', progress: 1, stage: 'download' });
    let bytes: Buffer;
    try {
      bytes = await this.download(`${this.host.httpBase.replace(/\/+$/, '')}${d.url}`, d.size, (pct) =>
        this.progress({ ...base, state: 'running', progress: Math.round(1 + pct * 0.59), stage: 'download' }),
      );
    } catch (err) {
      return fail(MaintFail.DOWNLOAD, String(err instanceof Error ? err.message : err).slice(0, 200), 1);
    }
    this.progress({ ...base, state: 'running', progress: 62, stage: 'verify' });
    const problem = verifyPackage(bytes, d, this.host.kind);
    if (problem) {
      this.progress({ ...base, state: 'failed', progress: 62, stage: 'verify', failure: problem.failure, message: problem.message });
      return;
    }
    for (let p = 70; p <= 90; p += 10) {
      this.progress({ ...base, state: 'running', progress: p, stage: 'install' });
      await this.wait(MAINT_TIMING.install / 3);
    }
    // The reboot drops the link; presence after it announces the new version, then the final event.
    this.firmware = d.version_name;
    this.progress({ ...base, state: 'running', progress: 95, stage: 'reboot' });
    // Real time, whatever the scale: the server records the reboot notice before the link drops.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const downMs = Math.max(300, (MAINT_TIMING.reboot * 1000) / Math.max(0.1, this.host.timeScale));
    this.host.reboot(downMs);
    await new Promise((resolve) => setTimeout(resolve, downMs + 200));
    this.progress({ ...base, state: 'ok', progress: 100, stage: 'done', firmware: this.firmware });
  }

  private async download(url: string, size: number, onProgress: (fraction: number) => void): Promise<Buffer> {
    const res = await fetch(url, { headers: { authorization: this.auth() }, signal: AbortSignal.timeout(120_000) });
    if (!res.ok || !res.body) throw new Error(`download answered HTTP ${res.status}`);
    const chunks: Buffer[] = [];
    let got = 0;
    let reported = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(chunk));
      got += chunk.length;
      if (got > size) throw new Error('download is longer than announced');
      // A progress event every 10 %, not per chunk.
      const fraction = got / size;
      if (fraction - reported >= 0.1 || got === size) {
        reported = fraction;
        onProgress(fraction);
      }
    }
    return Buffer.concat(chunks);
  }

  // ---------------------------------------------------------------------------------------- calibration

  private async calibrate(d: CalibrateCommandData): Promise<void> {
    const items = CALIBRATION_ITEMS.filter((i) => d.items.includes(i));
    const results: CalibrationResults = {};
    for (const [n, item] of items.entries()) {
      this.progress({ op_id: d.op_id, kind: 'calibrate', state: 'running', progress: Math.round((n * 100) / items.length), stage: item, results: { ...results } });
      await this.wait(MAINT_TIMING.calibrateItem);
      const abnormal = item === 'compass' ? this.faults.has('compass_fault') : this.faults.has('imu_fault');
      results[item] = abnormal ? 1 : 0;
    }
    const bad = Object.values(results).some((v) => v === 1);
    this.progress({
      op_id: d.op_id,
      kind: 'calibrate',
      state: bad ? 'failed' : 'ok',
      progress: 100,
      stage: 'done',
      results,
      ...(bad ? { failure: MaintFail.CALIBRATION } : {}),
    });
  }

  // ---------------------------------------------------------------------------------------- RTK

  private async connectRtk(d: RtkCommandData): Promise<void> {
    this.rtk = { url: d.url, port: d.port, mount_point: d.mount_point, user: d.user };
    this.host.stateChanged();
    const unreachable = unreachableCaster(d.url) || this.host.rtkLost();
    // Ntrip states of a session (contracts NtripState) and the RTK status beside each.
    const walk: [number, number][] = unreachable
      ? [[0, 1], [1, 1], [10, 1], [11, 0]]
      : [[0, 1], [1, 1], [2, 1], [3, 1], [6, 3], [7, 4]];
    for (const [i, [ntrip, rtk]] of walk.entries()) {
      this.host.setRtk(rtk, ntrip);
      const last = i === walk.length - 1;
      const state = !last ? 'running' : unreachable ? 'failed' : 'ok';
      this.progress({
        op_id: d.op_id,
        kind: 'rtk',
        state,
        progress: last ? 100 : Math.round((i * 100) / walk.length),
        stage: last ? 'done' : 'connect',
        ntrip_state: ntrip,
        rtk_status: rtk,
        ...(state === 'failed' ? { failure: MaintFail.CASTER } : {}),
      });
      if (!last) await this.wait(MAINT_TIMING.rtkStep);
    }
  }

  // ---------------------------------------------------------------------------------------- log

  private async uploadLog(d: LogCommandData): Promise<void> {
    const base = { op_id: d.op_id, kind: 'log' as const };
    this.progress({ ...base, state: 'running', progress: 10, stage: 'pack' });
    await this.wait(MAINT_TIMING.pack);
    const now = new Date();
    const name = `${this.host.sn}-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}.log`;
    const body = Buffer.from(
      [
        `# nest log ${this.host.sn} firmware ${this.firmware} packed ${now.toISOString()}`,
        ...this.host.logLines(),
        '',
      ].join('\n'),
    );
    this.progress({ ...base, state: 'running', progress: 40, stage: 'upload' });
    if (!this.host.httpBase) {
      this.progress({ ...base, state: 'failed', progress: 40, stage: 'upload', failure: MaintFail.UPLOAD, message: 'no server address for uploads' });
      return;
    }
    try {
      const res = await fetch(`${this.host.httpBase.replace(/\/+$/, '')}${d.url}`, {
        method: 'PUT',
        headers: {
          authorization: this.auth(),
          'content-type': 'application/octet-stream',
          'x-file-name': name,
          'x-content-sha256': createHash('sha256').update(body).digest('hex'),
        },
        body,
        signal: AbortSignal.timeout(60_000),
      });
      if (!res.ok) throw new Error(`upload answered HTTP ${res.status}`);
    } catch (err) {
      const message = String(err instanceof Error ? err.message : err).slice(0, 200);
      this.progress({ ...base, state: 'failed', progress: 40, stage: 'upload', failure: MaintFail.UPLOAD, message });
      return;
    }
    this.progress({ ...base, state: 'ok', progress: 100, stage: 'done', file_name: name, size: body.length });
  }
}

/** Why a downloaded package must not be installed, or null: size and sha256, .wkimg structure, type, payload digest, version, model. */
export function verifyPackage(bytes: Buffer, d: UpgradeCommandData, kind: string): { failure: number; message: string } | null {
  if (bytes.length !== d.size) return { failure: MaintFail.VERIFY, message: `size ${bytes.length}, expected ${d.size}` };
  if (createHash('sha256').update(bytes).digest('hex') !== d.sha256) return { failure: MaintFail.VERIFY, message: 'sha256 mismatch' };
  const parsed = parseWkimg(bytes);
  if (!parsed.ok) return { failure: MaintFail.VERIFY, message: `not a .wkimg package (${parsed.problem})` };
  const h = parsed.header;
  const payload = bytes.subarray(parsed.payloadOffset);
  if (createHash('sha256').update(payload).digest('hex') !== h.payload_sha256) return { failure: MaintFail.VERIFY, message: 'payload sha256 mismatch' };
  if (h.type !== NEST_FIRMWARE_TYPE) return { failure: MaintFail.WRONG_DEVICE, message: `package type ${h.type}` };
  if (h.model && h.model !== kind) return { failure: MaintFail.WRONG_DEVICE, message: `package for ${h.model}` };
  if (h.version_name !== d.version_name || h.version_code !== d.version_code) return { failure: MaintFail.VERIFY, message: 'version differs from the announced one' };
  return null;
}

import { DockMode } from './protocol.js';

/** DJI remote-debug result codes the emulated dock answers (DJI Cloud API, 5141xx). */
export const DebugCode = {
  ok: 0,
  coverOpenFailed: 514107,
  coverCloseFailed: 514108,
  emergencyStop: 514121,
  raining: 514134,
  windy: 514135,
  /** Busy, or a hardware command outside debug mode. */
  busy: 514148,
} as const;

/** Cover / putter state (CoverStateEnum). */
const Cover = { closed: 0, open: 1, half: 2 } as const;

/** What the debug bench reads and moves on its dock. */
export interface DebugHost {
  mode(): number;
  setMode(mode: number): void;
  /** True while a flight task runs (debug mode is then refused). */
  busy(): boolean;
  setCover(state: number): void;
  setDronePower(on: boolean): void;
  setCharging(on: boolean): void;
  /** Drops the connection and comes back with its topology. */
  reboot(): void;
  /** An events message `method` with this bid: `{result, output: {status, progress: {percent, step_key}}}`. */
  progress(method: string, bid: string, status: 'in_progress' | 'ok' | 'failed', percent: number, stepKey: string): void;
  /** Waits this many simulated seconds. */
  wait(simSeconds: number): Promise<void>;
  /** Conditions the operator set on the emulator (rain, wind, e-stop) that refuse cover commands. */
  weather(): { raining?: boolean; windy?: boolean; emergencyStop?: boolean };
}

/** Simulated seconds each hardware command moves for, and its progress steps. */
const MOVE_S = 6;
const STEPS = 3;

/**
 * Remote debug of the emulated dock: debug_mode_open / debug_mode_close switch mode_code 2; the hardware
 * commands answer 514148 outside it, then move over a few simulated seconds with progress events of their
 * own method and bid. Returns undefined for a method that is not a debug one.
 */
export class DebugBench {
  constructor(private readonly host: DebugHost) {}

  execute(method: string, bid: string): { result: number } | undefined {
    switch (method) {
      case 'debug_mode_open':
        if (this.host.busy() || (this.host.mode() !== DockMode.idle && this.host.mode() !== DockMode.remoteDebug)) return { result: DebugCode.busy };
        this.host.setMode(DockMode.remoteDebug);
        return { result: DebugCode.ok };
      case 'debug_mode_close':
        if (this.host.mode() === DockMode.remoteDebug) this.host.setMode(DockMode.idle);
        return { result: DebugCode.ok };
      case 'cover_open':
      case 'cover_close': {
        const gate = this.gate();
        if (gate) return { result: gate };
        const w = this.host.weather();
        if (w.emergencyStop) return { result: DebugCode.emergencyStop };
        if (w.raining && method === 'cover_open') return { result: DebugCode.raining };
        if (w.windy && method === 'cover_open') return { result: DebugCode.windy };
        this.host.setCover(Cover.half);
        this.move(method, bid, () => this.host.setCover(method === 'cover_open' ? Cover.open : Cover.closed));
        return { result: DebugCode.ok };
      }
      case 'drone_open':
      case 'drone_close':
      case 'charge_open':
      case 'charge_close': {
        const gate = this.gate();
        if (gate) return { result: gate };
        const on = method.endsWith('_open');
        this.move(method, bid, () => (method.startsWith('drone') ? this.host.setDronePower(on) : this.host.setCharging(on)));
        return { result: DebugCode.ok };
      }
      case 'device_reboot': {
        const gate = this.gate();
        if (gate) return { result: gate };
        // Answered first, then the dock goes away and comes back out of debug mode.
        void this.host.wait(1).then(() => {
          this.host.setMode(DockMode.idle);
          this.host.reboot();
        });
        return { result: DebugCode.ok };
      }
      default:
        return undefined;
    }
  }

  private gate(): number {
    return this.host.mode() === DockMode.remoteDebug ? 0 : DebugCode.busy;
  }

  private move(method: string, bid: string, done: () => void): void {
    void (async () => {
      for (let i = 1; i < STEPS; i += 1) {
        this.host.progress(method, bid, 'in_progress', Math.round((100 * i) / STEPS), 'moving');
        await this.host.wait(MOVE_S / STEPS);
      }
      done();
      this.host.progress(method, bid, 'ok', 100, 'done');
    })();
  }
}

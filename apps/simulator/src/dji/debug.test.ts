import { describe, expect, it } from 'vitest';
import { DebugBench, DebugCode, type DebugHost } from './debug.js';
import { DockMode } from './protocol.js';

/** A dock state the bench moves; simulated time passes at once; `finished` resolves on a final progress. */
function host(weather: ReturnType<DebugHost['weather']> = {}) {
  const s = { mode: DockMode.idle as number, cover: 0, drone: false, charging: false, reboots: 0, busy: false };
  const events: { method: string; status: string; percent: number }[] = [];
  let finish: () => void = () => {};
  const finished = new Promise<void>((r) => (finish = r));
  const h: DebugHost = {
    mode: () => s.mode,
    setMode: (m) => (s.mode = m),
    busy: () => s.busy,
    setCover: (c) => (s.cover = c),
    setDronePower: (on) => (s.drone = on),
    setCharging: (on) => (s.charging = on),
    reboot: () => {
      s.reboots += 1;
      finish();
    },
    progress: (method, _bid, status, percent) => {
      events.push({ method, status, percent });
      if (status !== 'in_progress') finish();
    },
    wait: () => Promise.resolve(),
    weather: () => weather,
  };
  return { s, events, finished, bench: new DebugBench(h) };
}

describe('the emulated dock in remote debug', () => {
  it('refuses a hardware command outside debug mode', () => {
    const { bench, s } = host();
    expect(bench.execute('cover_open', 'b1')).toEqual({ result: DebugCode.busy });
    expect(s.cover).toBe(0);
  });

  it('opens the cover in debug mode with progress to done', async () => {
    const { bench, s, events, finished } = host();
    expect(bench.execute('debug_mode_open', 'b0')).toEqual({ result: 0 });
    expect(s.mode).toBe(DockMode.remoteDebug);
    expect(bench.execute('cover_open', 'b1')).toEqual({ result: 0 });
    await finished;
    expect(s.cover).toBe(1);
    expect(events.at(-1)).toEqual({ method: 'cover_open', status: 'ok', percent: 100 });
    expect(events.length).toBeGreaterThan(1);
    bench.execute('debug_mode_close', 'b2');
    expect(s.mode).toBe(DockMode.idle);
  });

  it('refuses opening the cover in rain and with the emergency stop pressed', () => {
    const rain = host({ raining: true });
    rain.bench.execute('debug_mode_open', 'b0');
    expect(rain.bench.execute('cover_open', 'b1')).toEqual({ result: DebugCode.raining });
    const stop = host({ emergencyStop: true });
    stop.bench.execute('debug_mode_open', 'b0');
    expect(stop.bench.execute('cover_close', 'b1')).toEqual({ result: DebugCode.emergencyStop });
  });

  it('powers the drone and charging in debug mode', async () => {
    const { bench, s, finished } = host();
    bench.execute('debug_mode_open', 'b0');
    bench.execute('drone_open', 'b1');
    await finished;
    expect(s.drone).toBe(true);
  });

  it('refuses debug mode while a flight task runs', () => {
    const { bench, s } = host();
    s.busy = true;
    expect(bench.execute('debug_mode_open', 'b0')).toEqual({ result: DebugCode.busy });
  });

  it('reboots out of debug mode', async () => {
    const { bench, s, finished } = host();
    bench.execute('debug_mode_open', 'b0');
    expect(bench.execute('device_reboot', 'b1')).toEqual({ result: 0 });
    await finished;
    expect(s).toMatchObject({ reboots: 1, mode: DockMode.idle });
  });

  it('leaves other methods to the dock', () => {
    expect(host().bench.execute('flighttask_prepare', 'b')).toBeUndefined();
  });
});

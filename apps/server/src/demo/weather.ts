/**
 * Demo weather (DEMO_MISSIONS=on with the simulator): now and then a spell of strong wind over one idle
 * simulated nest, so a console started with `npm start` shows alarms being raised, cleared and processed
 * without hardware. The spell is the simulator's `high_wind` fault: the nest's anemometer reads above the
 * limit, the server's alarm rules raise `high_wind`, and when the spell ends the episode clears.
 */

/** First spell this long after start, so the first demo flight is not grounded by it. */
export const FIRST_SPELL_MS = 4 * 60_000;

export interface DemoWeatherOptions {
  fleet: { inject(sn: string, fault: 'high_wind'): void; clear(sn: string, fault?: 'high_wind'): void };
  nests: readonly string[];
  /** Nests flying or busy are skipped (wind would only abort the demo flight). */
  isIdle: (sn: string) => boolean;
  /** Time between the starts of two spells. */
  periodMs: number;
  /** How long a spell lasts. */
  spellMs: number;
  firstDelayMs?: number;
  log: (line: string) => void;
}

export function startDemoWeather(opts: DemoWeatherOptions): { stop(): Promise<void>; spell(): string | null } {
  let cursor = 0;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const windy = new Set<string>();

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) fn();
    }, ms);
    timers.add(t);
  };

  /** Starts a spell on the next idle nest; answers its sn, or null when none was idle. */
  function spell(): string | null {
    const n = opts.nests.length;
    for (let k = 0; k < n; k++) {
      const sn = opts.nests[(cursor + k) % n]!;
      if (windy.has(sn) || !opts.isIdle(sn)) continue;
      cursor = (cursor + k + 1) % n;
      windy.add(sn);
      opts.fleet.inject(sn, 'high_wind');
      opts.log(`Demo weather: strong wind over ${sn} for ${Math.round(opts.spellMs / 60_000)} min`);
      later(opts.spellMs, () => {
        windy.delete(sn);
        opts.fleet.clear(sn, 'high_wind');
        opts.log(`Demo weather: the wind over ${sn} calmed down`);
      });
      return sn;
    }
    return null;
  }

  const plan = (ms: number) =>
    later(ms, () => {
      spell();
      plan(opts.periodMs);
    });
  if (opts.nests.length > 0) plan(opts.firstDelayMs ?? FIRST_SPELL_MS);

  return {
    spell,
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const sn of windy) opts.fleet.clear(sn, 'high_wind');
      windy.clear();
    },
  };
}

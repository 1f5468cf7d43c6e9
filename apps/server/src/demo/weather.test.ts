import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SPELL_MS, startDemoWeather } from './weather.js';

afterEach(() => {
  vi.useRealTimers();
});

function fakeFleet() {
  const faults = new Set<string>();
  return {
    faults,
    inject: (sn: string) => void faults.add(sn),
    clear: (sn: string) => void faults.delete(sn),
  };
}

describe('demo weather', () => {
  it('blows over one idle nest at a time, round-robin, and calms down after the spell', async () => {
    vi.useFakeTimers();
    const fleet = fakeFleet();
    const busy = new Set(['N2']);
    const lines: string[] = [];
    const weather = startDemoWeather({
      fleet,
      nests: ['N1', 'N2', 'N3'],
      isIdle: (sn) => !busy.has(sn),
      periodMs: 10 * 60_000,
      spellMs: 3 * 60_000,
      log: (l) => lines.push(l),
    });
    expect(fleet.faults.size).toBe(0);
    await vi.advanceTimersByTimeAsync(FIRST_SPELL_MS);
    expect([...fleet.faults]).toEqual(['N1']);
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(fleet.faults.size).toBe(0);
    // N2 is busy (flying): skipped.
    await vi.advanceTimersByTimeAsync(7 * 60_000);
    expect([...fleet.faults]).toEqual(['N3']);
    expect(lines.some((l) => l.includes('N3'))).toBe(true);
    await weather.stop();
    expect(fleet.faults.size).toBe(0);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(fleet.faults.size).toBe(0);
  });

  it('does nothing when every nest is busy', () => {
    const fleet = fakeFleet();
    const weather = startDemoWeather({ fleet, nests: ['N1'], isIdle: () => false, periodMs: 1000, spellMs: 1000, firstDelayMs: 1e9, log: () => undefined });
    expect(weather.spell()).toBeNull();
    expect(fleet.faults.size).toBe(0);
    void weather.stop();
  });
});

import { ALARM_RULES, type DroneTelemetry, type NestTelemetry, type TelemetryData } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { RuleBook, readRule, type Transition } from './rules.js';
import { droneTelemetry as drone, nestTelemetry as nest } from '@nest/contracts/test-fixtures';

const T = (n: NestTelemetry | undefined, d: DroneTelemetry | undefined): TelemetryData => ({ nest: n, drone: d });
const ground = drone({ flight_state: 0 });

const R = ALARM_RULES.raiseAfterMs;
const C = ALARM_RULES.clearAfterMs;

/** Feeds samples every `step` ms from `from` to `to` (inclusive) and collects the transitions. */
function feed(book: RuleBook, t: TelemetryData, from: number, to: number, step = 1000): Transition[] {
  const out: Transition[] = [];
  for (let now = from; now <= to; now += step) out.push(...book.evaluate('SN', t, now));
  return out;
}

describe('readRule', () => {
  it('judges each kind on one sample', () => {
    expect(readRule('battery_low', T(undefined, drone({ battery: { ...drone().battery, percent: 30 } })), false)).toMatchObject({ holds: true, value: 30 });
    // On the ground a low battery is charging, not an alarm.
    expect(readRule('battery_low', T(undefined, { ...ground, battery: { ...ground.battery, percent: 10 } }), false)?.holds).toBe(false);
    expect(readRule('battery_critical', T(undefined, drone({ battery: { ...drone().battery, percent: 21 } })), false)?.holds).toBe(false);
    expect(readRule('battery_critical', T(undefined, drone({ flight_state: 8, battery: { ...drone().battery, percent: 20 } })), false)?.holds).toBe(true);
    expect(readRule('high_wind', T(nest({}, { wind_speed: 12 }), undefined), false)?.holds).toBe(false);
    expect(readRule('high_wind', T(nest({}, { wind_speed: 12.1 }), undefined), false)).toMatchObject({ holds: true, value: 12.1 });
    // Hysteresis: an open episode holds down to windClearSpeed.
    expect(readRule('high_wind', T(nest({}, { wind_speed: 10.5 }), undefined), true)?.holds).toBe(true);
    expect(readRule('high_wind', T(nest({}, { wind_speed: 9.9 }), undefined), true)?.holds).toBe(false);
    expect(readRule('rain', T(nest({}, { rainfall: 0.6 }), undefined), false)).toMatchObject({ holds: true, value: 0.6 });
    expect(readRule('rain', T(nest({}, { rainfall: 0.5 }), undefined), false)?.holds).toBe(false);
    expect(readRule('nest_part_fault', T(nest({ platform: 4 }), undefined), false)).toMatchObject({ holds: true, detail: 'platform' });
    expect(readRule('nest_part_fault', T(nest({ hatch: 3 }), undefined), false)?.holds).toBe(false);
    expect(readRule('rtk_loss', T(undefined, drone({ rtk: { status: 2, satellites: 5, ntrip_state: 0 } })), false)).toMatchObject({ holds: true, value: 2 });
    expect(readRule('rtk_loss', T(undefined, { ...ground, rtk: { status: 0, satellites: 0, ntrip_state: 0 } }), false)?.holds).toBe(false);
    expect(readRule('tf_card', T(undefined, drone({ storage: { sdcard_totalsize: 0, sdcard_free: 0 } })), false)).toMatchObject({ holds: true, detail: 'missing' });
    expect(readRule('tf_card', T(undefined, drone({ storage: { sdcard_totalsize: 64_000, sdcard_free: 100 } })), false)).toMatchObject({ holds: true, detail: 'full', value: 100 });
    expect(readRule('tf_card', T(undefined, drone({ powered: false, storage: { sdcard_totalsize: 0, sdcard_free: 0 } })), false)?.holds).toBe(false);
    // A single-soldier drone has no nest: nest kinds are not judged at all.
    expect(readRule('high_wind', T(undefined, drone()), false)).toBeNull();
    expect(readRule('battery_low', T(nest(), undefined), false)).toBeNull();
  });
});

describe('RuleBook', () => {
  const cases: [string, TelemetryData, TelemetryData, Partial<Transition>][] = [
    ['battery_low', T(nest(), drone({ battery: { ...drone().battery, percent: 25 } })), T(nest(), drone()), { kind: 'battery_low', value: 25 }],
    ['battery_critical', T(undefined, drone({ battery: { ...drone().battery, percent: 15 } })), T(undefined, ground), { kind: 'battery_critical', value: 15 }],
    ['high_wind', T(nest({}, { wind_speed: 15 }), ground), T(nest({}, { wind_speed: 3 }), ground), { kind: 'high_wind', value: 15 }],
    ['rain', T(nest({}, { rainfall: 4 }), ground), T(nest(), ground), { kind: 'rain', value: 4 }],
    ['nest_part_fault', T(nest({ hatch: 4 }), ground), T(nest(), ground), { kind: 'nest_part_fault', detail: 'hatch' }],
    ['rtk_loss', T(undefined, drone({ rtk: { status: 1, satellites: 3, ntrip_state: 0 } })), T(undefined, drone()), { kind: 'rtk_loss', value: 1 }],
    ['tf_card', T(undefined, { ...ground, storage: { sdcard_totalsize: 0, sdcard_free: 0 } }), T(undefined, ground), { kind: 'tf_card', detail: 'missing' }],
  ];

  for (const [kind, bad, good, raised] of cases) {
    it(`${kind}: raises after raiseAfterMs of bad samples, clears after clearAfterMs of good ones`, () => {
      const book = new RuleBook();
      // (A critically low battery is a low one too: both kinds open.)
      const mine = (ts: readonly Transition[]) => ts.filter((t) => t.kind === kind);
      expect(feed(book, bad, 0, R - 1000)).toEqual([]);
      expect(mine(book.evaluate('SN', bad, R))).toEqual([{ action: 'raise', detail: '', value: null, ...raised }]);
      expect(book.isOpen('SN', kind as never)).toBe(true);
      // Still bad: nothing more.
      expect(feed(book, bad, R + 1000, R + 60_000)).toEqual([]);
      const g0 = R + 61_000;
      expect(feed(book, good, g0, g0 + C - 1000)).toEqual([]);
      expect(mine(book.evaluate('SN', good, g0 + C))).toEqual([{ action: 'clear', kind }]);
      expect(book.isOpen('SN', kind as never)).toBe(false);
    });
  }

  it('does not raise on single samples (debounce) nor clear on single good ones', () => {
    const book = new RuleBook();
    const windy = T(nest({}, { wind_speed: 20 }), ground);
    const calm = T(nest(), ground);
    // Gusts of one sample, every other second, for a minute.
    for (let t = 0; t < 60_000; t += 2000) {
      expect(book.evaluate('SN', windy, t)).toEqual([]);
      expect(book.evaluate('SN', calm, t + 1000)).toEqual([]);
    }
    expect(feed(book, windy, 60_000, 60_000 + R)).toEqual([expect.objectContaining({ action: 'raise', kind: 'high_wind' })]);
    // Lulls of one sample do not clear it.
    const t1 = 60_000 + R + 1000;
    for (let t = t1; t < t1 + 120_000; t += 2000) {
      expect(book.evaluate('SN', calm, t)).toEqual([]);
      expect(book.evaluate('SN', windy, t + 1000)).toEqual([]);
    }
  });

  it('keeps high_wind open between windClearSpeed and the limit (hysteresis)', () => {
    const book = new RuleBook({ raiseAfterMs: 0, clearAfterMs: 0 });
    expect(book.evaluate('SN', T(nest({}, { wind_speed: 13 }), undefined), 0)).toHaveLength(1);
    expect(book.evaluate('SN', T(nest({}, { wind_speed: ALARM_RULES.windClearSpeed + 0.5 }), undefined), 1000)).toEqual([]);
    expect(book.evaluate('SN', T(nest({}, { wind_speed: ALARM_RULES.windClearSpeed - 0.5 }), undefined), 2000)).toEqual([{ action: 'clear', kind: 'high_wind' }]);
  });

  it('keeps devices apart, and samples without a nest leave nest episodes alone', () => {
    const book = new RuleBook({ raiseAfterMs: 0, clearAfterMs: 0 });
    expect(book.evaluate('A', T(nest({ charger: 4 }), undefined), 0)).toEqual([{ action: 'raise', kind: 'nest_part_fault', value: null, detail: 'charger' }]);
    expect(book.evaluate('B', T(nest(), undefined), 0)).toEqual([]);
    expect(book.evaluate('A', T(undefined, ground), 1000)).toEqual([]);
    expect(book.isOpen('A', 'nest_part_fault')).toBe(true);
    expect(book.isOpen('B', 'nest_part_fault')).toBe(false);
  });

  it('restarts its counts after resetCounts and takes episodes opened elsewhere', () => {
    const book = new RuleBook();
    const rainy = T(nest({}, { rainfall: 3 }), undefined);
    feed(book, rainy, 0, R - 1000);
    book.resetCounts('SN');
    expect(book.evaluate('SN', rainy, R)).toEqual([]);
    book.setOpen('SN', 'rain', true);
    expect(feed(book, T(nest(), undefined), R + 1000, R + 1000 + C)).toEqual([{ action: 'clear', kind: 'rain' }]);
  });
});

import {
  AIRBORNE_FLIGHT_STATES,
  ALARM_RULES,
  NestPartState,
  type AlarmKindValue,
  type DroneTelemetry,
  type TelemetryData,
} from '@nest/contracts';

/** Kinds judged from telemetry (the others come from presence and events). */
export const TELEMETRY_KINDS = ['battery_low', 'battery_critical', 'high_wind', 'rain', 'nest_part_fault', 'rtk_loss', 'tf_card'] as const;
export type TelemetryKind = (typeof TELEMETRY_KINDS)[number] & AlarmKindValue;

/** Nest parts whose state may read NestPartState.FAULT, in the order a fault is named. */
export const NEST_PARTS = ['hatch', 'platform', 'tripod', 'charger', 'drone_power'] as const;

/** flight_state values meaning "in the air": taking off, in the air, landing, returning home. */
export const inAir = (drone: Pick<DroneTelemetry, 'flight_state'> | undefined): boolean =>
  drone !== undefined && AIRBORNE_FLIGHT_STATES.includes(drone.flight_state);

/** One reading of a rule: does its condition hold now, and with what value / detail. */
export interface Reading {
  holds: boolean;
  value: number | null;
  detail: string;
}

export interface RuleTiming {
  raiseAfterMs: number;
  clearAfterMs: number;
}
export const DEFAULT_TIMING: RuleTiming = { raiseAfterMs: ALARM_RULES.raiseAfterMs, clearAfterMs: ALARM_RULES.clearAfterMs };

/**
 * The reading of one kind on one telemetry sample, or null when the sample says nothing about it (no nest
 * part in a single-soldier drone's telemetry, no drone). `open`: an episode is open, so the clear threshold
 * applies (wind hysteresis: an open high_wind episode holds until the wind drops below windClearSpeed).
 */
export function readRule(kind: TelemetryKind, t: TelemetryData, open: boolean): Reading | null {
  const { nest, drone } = t;
  switch (kind) {
    case 'battery_low':
    case 'battery_critical': {
      if (!drone) return null;
      const limit = kind === 'battery_low' ? ALARM_RULES.batteryLowPercent : ALARM_RULES.batteryCriticalPercent;
      const pct = drone.battery.percent;
      return { holds: inAir(drone) && pct <= limit, value: pct, detail: '' };
    }
    case 'high_wind': {
      if (!nest) return null;
      const w = nest.env.wind_speed;
      return { holds: open ? w >= ALARM_RULES.windClearSpeed : w > ALARM_RULES.windSpeed, value: w, detail: '' };
    }
    case 'rain': {
      if (!nest) return null;
      const r = nest.env.rainfall;
      return { holds: r > ALARM_RULES.rainfall, value: r, detail: '' };
    }
    case 'nest_part_fault': {
      if (!nest) return null;
      const part = NEST_PARTS.find((p) => nest[p] === NestPartState.FAULT);
      return { holds: part !== undefined, value: null, detail: part ?? '' };
    }
    case 'rtk_loss': {
      if (!drone) return null;
      return { holds: inAir(drone) && drone.rtk.status < ALARM_RULES.rtkStatus, value: drone.rtk.status, detail: '' };
    }
    case 'tf_card': {
      if (!drone) return null;
      const { sdcard_totalsize: total, sdcard_free: free } = drone.storage;
      if (!drone.powered) return { holds: false, value: null, detail: '' };
      if (total <= 0) return { holds: true, value: null, detail: 'missing' };
      return { holds: free < ALARM_RULES.minTfFreeMb, value: free, detail: free < ALARM_RULES.minTfFreeMb ? 'full' : '' };
    }
  }
}

/** A change a rule book decided: open an episode (with the reading that held) or close the open one. */
export type Transition =
  | { action: 'raise'; kind: TelemetryKind; value: number | null; detail: string }
  | { action: 'clear'; kind: TelemetryKind };

const NO_TRANSITIONS: readonly Transition[] = Object.freeze([]);

interface KindState {
  open: boolean;
  /**
   * Closed: since when the condition has held without a break (null: it does not hold). Open: since when
   * it has been false without a break (null: it still holds).
   */
  since: number | null;
}

/**
 * Debounce and hysteresis of the telemetry rules, per device and kind, with time passed in (no timers):
 * a condition raises once it held on every sample for raiseAfterMs, and an open episode clears once the
 * condition was false on every sample for clearAfterMs. One sample the other way restarts the count.
 */
export class RuleBook {
  /** Per device, the state of each kind in TELEMETRY_KINDS order (one lookup per sample). */
  private readonly states = new Map<string, KindState[]>();

  constructor(public timing: RuleTiming = DEFAULT_TIMING) {}

  private device(sn: string): KindState[] {
    let states = this.states.get(sn);
    if (!states) this.states.set(sn, (states = TELEMETRY_KINDS.map(() => ({ open: false, since: null }))));
    return states;
  }

  isOpen(sn: string, kind: TelemetryKind): boolean {
    return this.states.get(sn)?.[TELEMETRY_KINDS.indexOf(kind)]?.open ?? false;
  }

  /** Marks an episode open or closed from outside (start-up, another instance, a failed write). */
  setOpen(sn: string, kind: TelemetryKind, open: boolean): void {
    const s = this.device(sn)[TELEMETRY_KINDS.indexOf(kind)];
    if (!s) return;
    if (s.open !== open) s.since = null;
    s.open = open;
  }

  /**
   * Feeds one telemetry sample taken at `now` (ms); answers the transitions it completes (a shared empty
   * list when there are none, as on almost every sample).
   */
  evaluate(sn: string, t: TelemetryData, now: number): readonly Transition[] {
    let out: Transition[] | null = null;
    const states = this.device(sn);
    for (let i = 0; i < TELEMETRY_KINDS.length; i++) {
      const kind = TELEMETRY_KINDS[i]!;
      const s = states[i]!;
      const r = readRule(kind, t, s.open);
      // A sample that says nothing about a kind neither raises nor clears it.
      if (r === null) continue;
      if (!s.open) {
        if (!r.holds) {
          s.since = null;
          continue;
        }
        s.since ??= now;
        if (now - s.since >= this.timing.raiseAfterMs) {
          s.open = true;
          s.since = null;
          (out ??= []).push({ action: 'raise', kind, value: r.value, detail: r.detail });
        }
      } else {
        if (r.holds) {
          s.since = null;
          continue;
        }
        s.since ??= now;
        if (now - s.since >= this.timing.clearAfterMs) {
          s.open = false;
          s.since = null;
          (out ??= []).push({ action: 'clear', kind });
        }
      }
    }
    return out ?? NO_TRANSITIONS;
  }

  /** Forgets the pending counts of a device (it went offline: its next samples start afresh). */
  resetCounts(sn: string): void {
    for (const s of this.states.get(sn) ?? []) s.since = null;
  }

  forget(sn: string): void {
    this.states.delete(sn);
  }
}

import { NEUTRAL_STICKS, STICK_MAX, STICK_MIN, STICK_NEUTRAL, VIRTUAL_UP_INTERVAL_MS, type Sticks } from '@nest/contracts';

/** Deflection of a keyboard-held stick (of the 500 available each way): gentle enough to steer by taps. */
export const KEY_DEFLECTION = 300;

const clamp = (v: number) => Math.round(Math.min(STICK_MAX, Math.max(STICK_MIN, v)));

/** Sticks from the keys held: W/S pitch, A/D roll, arrows up/down throttle, left/right yaw. */
export function keySticks(held: ReadonlySet<string>): Partial<Sticks> {
  const axis = (plus: string, minus: string) => (held.has(plus) ? KEY_DEFLECTION : 0) - (held.has(minus) ? KEY_DEFLECTION : 0);
  const out: Partial<Sticks> = {};
  const pitch = axis('KeyW', 'KeyS');
  const roll = axis('KeyD', 'KeyA');
  const throttle = axis('ArrowUp', 'ArrowDown');
  const yaw = axis('ArrowRight', 'ArrowLeft');
  if (pitch) out.pitch = STICK_NEUTRAL + pitch;
  if (roll) out.roll = STICK_NEUTRAL + roll;
  if (throttle) out.throttle = STICK_NEUTRAL + throttle;
  if (yaw) out.yaw = STICK_NEUTRAL + yaw;
  return out;
}

/** A pad position (-1..1 each way, y up) as two stick values. */
export function padSticks(x: number, y: number): [number, number] {
  const c = (v: number) => clamp(STICK_NEUTRAL + Math.max(-1, Math.min(1, v)) * (STICK_MAX - STICK_NEUTRAL));
  return [c(x), c(y)];
}

export interface Timers {
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
}

/**
 * Sends the stick frame every VIRTUAL_UP_INTERVAL_MS while running (the device holds position when
 * frames stop for STICK_HOLD_MS, so the cadence must not lapse). Stopping sends one neutral frame at once,
 * so the drone does not keep drifting on the last deflection until its hold timeout.
 */
export class StickSender {
  private timer: unknown = null;
  private sticks: Sticks = { ...NEUTRAL_STICKS };

  constructor(
    private readonly send: (s: Sticks) => void,
    private readonly timers: Timers = {
      setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
      clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
    },
    private readonly intervalMs = VIRTUAL_UP_INTERVAL_MS,
  ) {}

  get running(): boolean {
    return this.timer !== null;
  }

  get current(): Sticks {
    return this.sticks;
  }

  start(): void {
    if (this.timer !== null) return;
    this.sticks = { ...NEUTRAL_STICKS };
    this.timer = this.timers.setInterval(() => this.send({ ...this.sticks }), this.intervalMs);
  }

  /** Replaces the sticks (missing channels neutral). */
  set(s: Partial<Sticks>): void {
    this.sticks = { ...NEUTRAL_STICKS, ...Object.fromEntries(Object.entries(s).map(([k, v]) => [k, clamp(v)])) };
  }

  stop(): void {
    if (this.timer === null) return;
    this.timers.clearInterval(this.timer);
    this.timer = null;
    this.sticks = { ...NEUTRAL_STICKS };
    this.send({ ...NEUTRAL_STICKS });
  }
}

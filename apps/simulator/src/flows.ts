import { flowSteps } from '@nest/contracts';
import type { FlowKindValue, FlowProgress, FlowStateValue, FlowStepStateValue, FlowStepValue } from '@nest/contracts';

/**
 * One nest flow (takeoff, landing, alternate) as plain data plus pure helpers. The flow only keeps the
 * timeline; what a step does to the drone and the nest is decided by ops.ts, which calls `advance` when a
 * step's condition is met (a timed step: its duration has elapsed; a flying step: the drone arrived).
 */

/** Seconds of the timed steps at time scale 1. Steps absent here end on a condition (drone arrived, landed). */
export const STEP_SECONDS: Partial<Record<FlowStepValue, number>> = {
  drone_start: 4,
  route_upload: 2,
  hatch_open: 12,
  platform_rise: 8,
  tripod_release: 4,
  self_check: 5,
  unlock: 2,
  hatch_close: 12,
  battery_load: 4,
  tripod_clamp: 4,
  platform_lower: 8,
  drone_stop: 4,
  charge: 1,
  altn_decide: 2,
  altn_secure: 2,
};

/** The nest part a step moves, and how (tip code 3 opening, 2 closing), per contracts flowProgressSchema.tip. */
export const STEP_TIP: Partial<Record<FlowStepValue, { code: 2 | 3; part: string }>> = {
  drone_start: { code: 3, part: 'drone_power' },
  hatch_open: { code: 3, part: 'hatch' },
  platform_rise: { code: 3, part: 'lift' },
  // The centring bars hold the docked drone (tripod 1): releasing moves them away (2), clamping back (3).
  tripod_release: { code: 2, part: 'center_stand' },
  hatch_close: { code: 2, part: 'hatch' },
  battery_load: { code: 3, part: 'charger' },
  tripod_clamp: { code: 3, part: 'center_stand' },
  platform_lower: { code: 2, part: 'lift' },
  drone_stop: { code: 2, part: 'drone_power' },
  charge: { code: 3, part: 'charger' },
};

/** Steps during which pausing is refused (ProcessRefusal 4): the drone is between ground and air. */
export const UNPAUSABLE: ReadonlySet<FlowStepValue> = new Set(['takeoff', 'landing', 'altn_land']);

export interface FlowRun {
  id: string;
  kind: FlowKindValue;
  steps: { step: FlowStepValue; state: FlowStepStateValue; elapsed: number }[];
  current: number;
  state: FlowStateValue;
  error: number | null;
  startedAt: number;
  elapsed: number;
}

export function newFlow(id: string, kind: FlowKindValue, deviceType: string, startedAt: number): FlowRun {
  return {
    id,
    kind,
    steps: flowSteps(kind, deviceType).map((step) => ({ step, state: 'waiting', elapsed: 0 })),
    current: -1,
    state: 'running',
    error: null,
    startedAt,
    elapsed: 0,
  };
}

export const currentStep = (f: FlowRun): FlowStepValue | null => f.steps[f.current]?.step ?? null;
export const isActive = (f: FlowRun | null): f is FlowRun => f !== null && (f.state === 'running' || f.state === 'paused');

/** Ends the running step (done) and starts the next; the flow is done after the last one. */
export function advance(f: FlowRun): FlowStepValue | null {
  const cur = f.steps[f.current];
  if (cur) cur.state = 'done';
  f.current += 1;
  const next = f.steps[f.current];
  if (!next) {
    f.state = 'done';
    f.current = f.steps.length;
    return null;
  }
  next.state = 'running';
  return next.step;
}

/** Fails the running step with `error` (FlowError / AlternateError); later steps stay waiting. */
export function fail(f: FlowRun, error: number | null): void {
  const cur = f.steps[f.current];
  if (cur) cur.state = 'failed';
  f.state = 'failed';
  f.error = error;
}

/** Interrupted: the running step and the rest are skipped. */
export function interrupt(f: FlowRun): void {
  for (let i = Math.max(0, f.current); i < f.steps.length; i++) {
    const s = f.steps[i]!;
    if (s.state === 'running' || s.state === 'waiting') s.state = 'skipped';
  }
  f.state = 'interrupted';
}

/** Time passes in the running step (not while paused). */
export function tick(f: FlowRun, dt: number): void {
  if (f.state !== 'running') return;
  f.elapsed += dt;
  const cur = f.steps[f.current];
  if (cur) cur.elapsed += dt;
}

/** Has the running timed step used up its duration? */
export function timedStepDone(f: FlowRun): boolean {
  const cur = f.steps[f.current];
  if (!cur) return false;
  const secs = STEP_SECONDS[cur.step];
  return secs !== undefined && cur.elapsed >= secs - 1e-9;
}

const r1 = (v: number): number => Math.round(v * 10) / 10;

/** The contracts' view (event flow.progress and `flow` in the state). */
export function flowProgress(f: FlowRun): FlowProgress {
  const cur = f.state === 'running' || f.state === 'paused' ? currentStep(f) : null;
  return {
    flow_id: f.id,
    kind: f.kind,
    state: f.state,
    steps: f.steps.map((s) => ({ step: s.step, state: s.state, elapsed: r1(s.elapsed) })),
    current: Math.min(f.current, f.steps.length),
    error: f.error,
    tip: cur ? (STEP_TIP[cur] ?? null) : null,
    started_at: Math.round(f.startedAt),
    elapsed: r1(f.elapsed),
  };
}

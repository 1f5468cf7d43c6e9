/**
 * The fleet simulator (apps/simulator), loaded only when SIMULATOR=on, by the CLI's demo-fleet, or by
 * tests: a deployment with real devices never runs simulator code.
 */
import type * as SimulatorModule from '@nest/simulator';

export type Simulator = typeof SimulatorModule;
export type SimFleet = Awaited<ReturnType<Simulator['startFleet']>>;

export async function loadSimulator(): Promise<Simulator> {
  return import('@nest/simulator');
}

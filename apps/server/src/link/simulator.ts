/**
 * Loads the fleet simulator (apps/simulator) only when SIMULATOR=on or a test wants it. The package is
 * imported by name; while it declares no `exports`, its entry file is imported directly.
 */
import type * as SimulatorModule from '../../../simulator/src/index.js';

export type Simulator = typeof SimulatorModule;
export type SimFleet = Awaited<ReturnType<Simulator['startFleet']>>;

export async function loadSimulator(): Promise<Simulator> {
  const byName: string = '@nest/simulator';
  const byFile: string = '@nest/simulator/src/index.ts';
  try {
    return (await import(byName)) as Simulator;
  } catch {
    return (await import(byFile)) as Simulator;
  }
}

/**
 * The fleet simulator (apps/simulator) for server tests that need real devices on the link: a development
 * tool of the tests only (a devDependency of the server). The product starts the demo fleet through the
 * launcher (apps/launcher), never from the server.
 */
import type * as SimulatorModule from '@nest/simulator';

export type Simulator = typeof SimulatorModule;
export type SimFleet = Awaited<ReturnType<Simulator['startFleet']>>;

export async function loadSimulator(): Promise<Simulator> {
  return import('@nest/simulator');
}

/**
 * Global setup of the server projects: builds the server's entry points once per run (scripts/build-server.mjs,
 * a fraction of a second), so the tests that start the product or its CLI as a program (process.ts runTs) run
 * the current code as plain JavaScript instead of compiling the TypeScript in every child process.
 */
import { buildServer } from '../../../scripts/build-server.mjs';

// Kept on the process, not in this module: vitest imports a global setup module once per project.
const state = ((globalThis as Record<symbol, unknown>)[Symbol.for('nest.test.serverBuild')] ??= { built: null }) as {
  built: Promise<number> | null;
};

export default async function setup(): Promise<void> {
  state.built ??= buildServer();
  await state.built;
}

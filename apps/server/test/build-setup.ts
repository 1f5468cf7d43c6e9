/**
 * Global setup of the server projects: builds the server's entry points once per run (scripts/build-server.mjs,
 * a fraction of a second), so the tests that start the product or its CLI as a program (process.ts runTs) run
 * the current code as plain JavaScript instead of compiling the TypeScript in every child process.
 */
import { buildServer } from '../../../scripts/build-server.mjs';

let built: Promise<number> | null = null;

export default async function setup(): Promise<void> {
  built ??= buildServer();
  await built;
}

/**
 * Global setup of the server projects: a template DATA_DIR made once per run, which startTestServer copies into
 * each new test data directory (helpers.ts). It holds what a server would otherwise make on its first start and
 * what costs seconds of CPU each time: the two RSA key pairs (auth/keys.ts) and the offline basemap cut to its
 * prebuild zoom (maps/basemap.ts). With it a test server starts in tens of milliseconds instead of about two
 * seconds, and no test file's server spends a core cutting tiles in the background while other files run.
 * Making keys and cutting the basemap are tested on their own (auth, maps tests) and by the spawned product
 * (main.test.ts, e2e), which start on empty directories.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { prepareDataDir } from './data-dir.js';

// Kept on the process, not in this module: vitest imports a global setup module once per project.
const state = ((globalThis as Record<symbol, unknown>)[Symbol.for('nest.test.template')] ??= { shared: null, users: 0 }) as {
  shared: Promise<string> | null;
  users: number;
};

async function makeTemplate(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nest-template-'));
  await prepareDataDir(dir);
  return dir;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  state.shared ??= makeTemplate();
  state.users += 1;
  project.provide('dataTemplate', await state.shared);
  return async () => {
    state.users -= 1;
    if (state.users > 0 || !state.shared) return;
    const dir = await state.shared;
    state.shared = null;
    await rm(dir, { recursive: true, force: true });
  };
}

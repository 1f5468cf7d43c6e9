// Type-checks every workspace with its own tsconfig (browser, node and shared code differ in libs), as many
// at a time as the machine has cores.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runJobs } from './jobs.mjs';

/** The workspaces, the slowest first (they start first when run side by side). */
const PROJECTS = ['apps/server', 'apps/web', 'bench', 'apps/simulator', 'packages/formats', 'e2e', 'apps/launcher', 'packages/contracts', 'packages/geo', 'packages/ffmpeg'];

export const typecheckJobs = () =>
  PROJECTS.filter((p) => existsSync(`${p}/tsconfig.json`)).map((p) => ({
    name: `typecheck ${p}`,
    cmd: process.execPath,
    args: ['node_modules/typescript/bin/tsc', '-p', p],
  }));

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  process.exit((await runJobs(typecheckJobs())) ? 0 : 1);
}

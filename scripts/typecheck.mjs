// Type-checks every workspace with its own tsconfig (browser, node and shared code differ in libs), as many
// at a time as the machine has cores.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { runJobs } from './jobs.mjs';

/** The workspaces, the slowest first (they start first when run side by side). */
const PROJECTS = ['apps/server', 'apps/web', 'bench', 'apps/simulator', 'packages/formats', 'e2e', 'apps/launcher', 'packages/contracts', 'packages/geo', 'packages/ffmpeg'];

/**
 * A workspace checked in the program of the one it is built on, when both have the same compiler options:
 * the launcher imports the whole server, so checking it on its own type-checked the server's ~250 files a
 * second time (about 20 s of a core). One program with both sets of files reports the same errors. When the
 * options differ, each is checked on its own again.
 */
const CHECKED_WITH = { 'apps/launcher': 'apps/server' };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = (project) => ['node_modules/typescript/bin/tsc', '-p', project];

/** A workspace's compiler options (its tsconfig with what it extends) and its own `include`, absolute. */
function readProject(dir) {
  const file = path.join(root, dir, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(file), undefined, file);
  const { configFilePath: _file, ...options } = parsed.options;
  return { file, options: JSON.stringify(options), include: (config.include ?? []).map((p) => path.join(root, dir, p)) };
}

/** A tsconfig (in node_modules/.cache) that extends `host`'s and includes its files and `guest`'s. */
function combinedProject(host, guest) {
  const [h, g] = [readProject(host), readProject(guest)];
  if (h.options !== g.options || h.include.length === 0 || g.include.length === 0) return null;
  const dir = path.join(root, 'node_modules/.cache/typecheck');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${host.replaceAll('/', '-')}+${guest.replaceAll('/', '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ extends: h.file, include: [...h.include, ...g.include] }, null, 2)}\n`);
  return file;
}

export const typecheckJobs = () => {
  const present = PROJECTS.filter((p) => existsSync(path.join(root, p, 'tsconfig.json')));
  const combined = new Map();
  for (const [guest, host] of Object.entries(CHECKED_WITH)) {
    if (!present.includes(guest) || !present.includes(host)) continue;
    const file = combinedProject(host, guest);
    if (file) combined.set(host, { guest, file });
  }
  const guests = new Set([...combined.values()].map((c) => c.guest));
  return present
    .filter((p) => !guests.has(p))
    .map((p) => {
      const with_ = combined.get(p);
      return with_
        ? { name: `typecheck ${p} + ${with_.guest}`, cmd: process.execPath, args: tsc(path.relative(root, with_.file)) }
        : { name: `typecheck ${p}`, cmd: process.execPath, args: tsc(p) };
    });
};

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  process.chdir(root);
  process.exit((await runJobs(typecheckJobs())) ? 0 : 1);
}

// Type-checks every workspace with its own tsconfig (browser, node and shared code differ in libs), as many
// at a time as the machine has cores.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { runJobs } from './jobs.mjs';

/** The workspaces, the slowest first (they start first when run side by side). */
const PROJECTS = ['apps/server', 'e2e', 'apps/web', 'bench', 'apps/simulator', 'packages/formats', 'apps/launcher', 'packages/contracts', 'packages/geo', 'packages/ffmpeg'];

/**
 * Workspaces checked in the program of another one (the host) with the same compiler options: one program
 * with all their files reports the same errors, and the files they share (the server under the launcher, e2e
 * and the benchmarks; the simulator and the packages under nearly all) are read and checked once instead of
 * in each workspace's program. The launcher imports the whole server (its ~250 files were checked twice);
 * e2e, the benchmarks and the simulator share the DOM and Node libraries and import the server and the
 * simulator; contracts and formats take Node's types from their tests. When a guest's options differ from
 * its host's, it is checked on its own again. geo is not combined: it declares the few web globals it uses
 * itself (web-platform.d.ts), which would clash with Node's.
 */
const CHECKED_WITH = {
  'apps/server': ['apps/launcher', 'packages/ffmpeg'],
  e2e: ['bench', 'apps/simulator'],
  'packages/contracts': ['packages/formats'],
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = (project) => ['node_modules/typescript/bin/tsc', '-p', project];

/** A workspace's compiler options (its tsconfig with what it extends) and its root files, absolute. */
function readProject(dir) {
  const file = path.join(root, dir, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(file), undefined, file);
  const { configFilePath: _file, ...options } = parsed.options;
  return { dir, file, options: JSON.stringify(options), files: parsed.fileNames };
}

/**
 * A tsconfig (in node_modules/.cache) that extends `host`'s and lists its root files and those of the guests
 * with the same options; answers it and the guests it took, or null when none has the same options.
 */
function combinedProject(host, guests) {
  const h = readProject(host);
  const same = guests.map(readProject).filter((g) => g.options === h.options && g.files.length > 0);
  if (h.files.length === 0 || same.length === 0) return null;
  const dir = path.join(root, 'node_modules/.cache/typecheck');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${[host, ...same.map((g) => g.dir)].join('+').replaceAll('/', '-')}.json`);
  const files = [...new Set([h, ...same].flatMap((p) => p.files))];
  // Written only when it changes, and whole (a rename): the checks' jobs read it side by side.
  const text = `${JSON.stringify({ extends: h.file, include: [], files }, null, 2)}\n`;
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    writeFileSync(`${file}.${process.pid}`, text);
    renameSync(`${file}.${process.pid}`, file);
  }
  return { file, guests: same.map((g) => g.dir) };
}

/**
 * The programs that check every workspace: `name` (the workspaces in it), `tsconfig` (a workspace's, or a
 * combined one) and `workspaces`.
 */
export const typecheckGroups = () => {
  const present = PROJECTS.filter((p) => existsSync(path.join(root, p, 'tsconfig.json')));
  const combined = new Map();
  for (const [host, guests] of Object.entries(CHECKED_WITH)) {
    if (!present.includes(host)) continue;
    const c = combinedProject(host, guests.filter((g) => present.includes(g)));
    if (c) combined.set(host, c);
  }
  const guests = new Set([...combined.values()].flatMap((c) => c.guests));
  return present
    .filter((p) => !guests.has(p))
    .map((p) => {
      const c = combined.get(p);
      const workspaces = [p, ...(c?.guests ?? [])];
      return { name: workspaces.join(' + '), tsconfig: c ? c.file : path.join(root, p, 'tsconfig.json'), workspaces };
    });
};

export const typecheckJobs = () =>
  typecheckGroups().map((g) => ({ name: `typecheck ${g.name}`, cmd: process.execPath, args: tsc(path.relative(root, g.tsconfig)) }));

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  process.chdir(root);
  process.exit((await runJobs(typecheckJobs())) ? 0 : 1);
}

// The checks before the tests, side by side on the machine's cores: the calls document is current, no
// dependency has a known advisory, every workspace type-checks, lint is clean, imports keep within their
// boundaries (scripts/boundaries.mjs), the web app and the server build, and better-sqlite3's binding is
// built (scripts/native-addons.mjs; the tests need it). The type check and the lint
// rules that need types share one TypeScript program per group of workspaces (scripts/types-and-lint.mjs);
// the other lint rules run over every file in a job of their own. `--quick` (npm run test:quick) keeps type
// check, lint and boundaries only.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJobs } from './jobs.mjs';
import { typecheckGroups } from './typecheck.mjs';

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
// A test command starts here: the timings of earlier runs go (scripts/slowest.mjs reports this run's).
for (const f of existsSync('test-results') ? readdirSync('test-results') : []) {
  if (/^times-.*\.json$/.test(f)) rmSync(path.join('test-results', f));
}
const quick = process.argv.includes('--quick');
const npm = (script) => ({ name: script, cmd: 'npm', args: ['run', '-s', script] });
const boundaries = { name: 'boundaries', cmd: process.execPath, args: ['scripts/boundaries.mjs'] };
const started = Date.now();
const script = (name, ...args) => ({ name, cmd: process.execPath, args: ['scripts/types-and-lint.mjs', ...args] });
// The longest jobs start first: the binding's build where it is missing (a minute on one core), the server's
// group (scripts/typecheck.mjs lists the groups largest first) and the lint without types; the short jobs
// fill in at the end.
const [first, ...typed] = typecheckGroups().map((g) => script(`typecheck and typed lint: ${g.name}`, g.workspaces[0]));
const untyped = script('lint', '--untyped');
// better-sqlite3's binding, which CI builds here (scripts/native-addons.mjs); elsewhere it is there already.
const native = { name: 'native addons', cmd: process.execPath, args: ['scripts/native-addons.mjs'] };
const jobs = quick
  ? [native, first, untyped, ...typed, boundaries]
  : [native, first, untyped, ...typed, npm('build'), boundaries, npm('audit'), npm('docs:check')];
const ok = await runJobs(jobs.filter(Boolean));
console.log(`checks ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(ok ? 0 : 1);

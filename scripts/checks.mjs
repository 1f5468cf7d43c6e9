// The checks before the tests, side by side on the machine's cores: the calls document is current, no
// dependency has a known advisory, every workspace type-checks, lint is clean, imports keep within their
// boundaries (scripts/boundaries.mjs), and the web app and the server build. `--quick` (npm run test:quick)
// keeps type check, lint and boundaries only.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJobs } from './jobs.mjs';
import { typecheckJobs } from './typecheck.mjs';

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
// A test command starts here: the timings of earlier runs go (scripts/slowest.mjs reports this run's).
for (const f of existsSync('test-results') ? readdirSync('test-results') : []) {
  if (/^times-.*\.json$/.test(f)) rmSync(path.join('test-results', f));
}
const quick = process.argv.includes('--quick');
const npm = (script) => ({ name: script, cmd: 'npm', args: ['run', '-s', script] });
const boundaries = { name: 'boundaries', cmd: process.execPath, args: ['scripts/boundaries.mjs'] };
const started = Date.now();
const [server, ...otherTypechecks] = typecheckJobs();
const jobs = quick
  ? [server, npm('lint'), ...otherTypechecks, boundaries]
  : [server, npm('lint'), npm('build'), ...otherTypechecks, boundaries, npm('audit'), npm('docs:check')];
const ok = await runJobs(jobs.filter(Boolean));
console.log(`checks ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(ok ? 0 : 1);

// Makes sure better-sqlite3's native binding is built: a no-op where it loads (a machine that ran `npm ci`
// with its install scripts). CI installs with the install scripts of every other package only (.ci/run), and
// this job of the checks builds the binding beside the type check and lint: without a prebuilt binary for
// the machine, better-sqlite3 compiles SQLite (one large C file, about a minute on one core), which held up
// `npm ci` while the machine's second core waited. The tests need the binding; the checks do not.
import { spawnSync } from 'node:child_process';

const loads = () =>
  spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { encoding: 'utf8' });

const first = loads();
if (first.status === 0) {
  console.log('better-sqlite3: its binding loads');
  process.exit(0);
}
console.log(`better-sqlite3: ${(first.stderr.split('\n').find((l) => l.startsWith('Error')) ?? 'does not load').trim()}; building it`);
const started = Date.now();
// Optimised less than the package's own -O3 (the flags given here come after the package's): SQLite's
// one large C file compiles in about half the time (58 s against 102 s on one quiet core), and the tests
// do not time SQLite. A machine's own `npm ci` builds the product's binding with the package's flags.
const build = spawnSync('npm', ['rebuild', 'better-sqlite3'], {
  stdio: 'inherit',
  env: { ...process.env, CFLAGS: `${process.env.CFLAGS ?? ''} -O1`.trim(), CXXFLAGS: `${process.env.CXXFLAGS ?? ''} -O1`.trim() },
});
const again = loads();
if (build.status !== 0 || again.status !== 0) {
  console.log(`better-sqlite3: the build failed${again.stderr ? `:\n${again.stderr.trim()}` : ''}`);
  process.exit(1);
}
console.log(`better-sqlite3: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);

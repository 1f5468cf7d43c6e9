// Checks the import boundaries (.dependency-cruiser.cjs) over the apps and packages and prints how many imports
// still cross them: upward imports (server infrastructure → a feature; web shared/ → features or app/, a web
// feature → app/), a feature reaching into another's internals, and import cycles. Fails when a count exceeds
// its allowed number below, or when any other rule is broken. `--list` prints every crossing import.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));

/**
 * The crossings still allowed, by count: none. A new one is either moved to the layer it belongs to, or
 * given a reason in docs/architecture.md ("Choices that stand against a rule") and counted here.
 */
const ALLOWED = {
  'server upward imports': 0,
  'web upward imports': 0,
  'server feature internals': 0,
  'web feature internals': 0,
  cycles: 0,
};

/** The rules counted under each heading; a broken rule not listed here is never allowed. */
const COUNTED = {
  'server upward imports': ['server-infrastructure-imports-feature', 'server-feature-imports-root'],
  'web upward imports': ['web-shared-imports-feature', 'web-feature-imports-app'],
  'server feature internals': ['server-feature-internals'],
  'web feature internals': ['web-feature-internals'],
  cycles: ['no-circular'],
};

const started = Date.now();
const run = spawnSync(
  process.execPath,
  ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'apps', 'packages'],
  { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
if (run.status !== 0 && !run.stdout) {
  process.stderr.write(run.stderr);
  process.exit(1);
}
const { summary } = JSON.parse(run.stdout);

const byHeading = new Map(Object.keys(COUNTED).map((h) => [h, []]));
const unexpected = [];
const cycles = new Map();
for (const v of summary.violations) {
  const line = `${v.rule.name}: ${v.from} → ${v.to}`;
  if (v.rule.name === 'no-circular') {
    // One cycle is reported once per import in it: count each set of modules once.
    const members = v.cycle.map((c) => c.name);
    const key = [...members].sort().join(' ');
    if (!cycles.has(key)) cycles.set(key, `cycle: ${[v.from, ...members].join(' → ')}`);
    continue;
  }
  const heading = Object.keys(COUNTED).find((h) => COUNTED[h].includes(v.rule.name));
  if (heading) byHeading.get(heading).push(line);
  else unexpected.push(line);
}
byHeading.set('cycles', [...cycles.values()]);

const list = process.argv.includes('--list');
let ok = unexpected.length === 0;
for (const [heading, lines] of byHeading) {
  const over = lines.length > ALLOWED[heading];
  if (over) ok = false;
  if (list || over) for (const l of lines) console.log(`  ${l}`);
  if (over) console.log(`${heading}: ${lines.length}, more than the ${ALLOWED[heading]} allowed`);
}
for (const l of unexpected) console.log(`  ${l}`);
const n = (h) => byHeading.get(h).length;
console.log(
  `server upward imports: ${n('server upward imports')}, web: ${n('web upward imports')}, cycles: ${n('cycles')}; ` +
    `feature internals reached from another feature: server ${n('server feature internals')}, web ${n('web feature internals')}` +
    `${unexpected.length ? `; other boundary violations: ${unexpected.length}` : ''} ` +
    `(${summary.totalCruised} modules, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
process.exit(ok ? 0 : 1);

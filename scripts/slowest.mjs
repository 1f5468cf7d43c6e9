// Prints the slowest test files of the last runs (from test-results/times-*.json, written by the timing
// reporter vitest.config.ts installs): `node scripts/slowest.mjs [count]`, 15 by default.
import { readFileSync, readdirSync, existsSync } from 'node:fs';

const count = Number(process.argv[2] ?? 15);
const dir = 'test-results';
const runs = existsSync(dir) ? readdirSync(dir).filter((f) => /^times-.*\.json$/.test(f)) : [];
if (runs.length === 0) {
  console.error('No test timings yet: run the tests first (npm test or npx vitest run).');
  process.exit(1);
}
const files = [];
for (const name of runs) {
  const run = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'));
  console.log(`${name.slice(6, -5).padEnd(52)} ${(run.wallMs / 1000).toFixed(0).padStart(5)} s wall, ${run.files.length} files (${run.at})`);
  files.push(...run.files);
}
files.sort((a, b) => b.ms - a.ms);
const width = Math.max(...files.slice(0, count).map((f) => f.file.length + f.project.length + 3));
console.log(`\nThe ${Math.min(count, files.length)} slowest test files (wall time of the file; tests alone):`);
for (const f of files.slice(0, count)) {
  const name = `${f.file} [${f.project}]`;
  console.log(`  ${name.padEnd(width)} ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${(f.testMs / 1000).toFixed(1).padStart(6)} s${f.state === 'passed' ? '' : `  ${f.state}`}`);
}

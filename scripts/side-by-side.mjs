// Runs shell commands at the same time and fails when any of them fails (after all have ended): the first
// with its output live, each other with its output kept and printed whole when it ends, so that no two
// commands' lines interleave. `node scripts/side-by-side.mjs "<command>" "<command>" ...`
//
// npm test runs the e2e tests and the cluster tests with it. Each of the two projects runs one file at a time
// (fileParallelism: false), and vitest runs such files after all others, one by one; in the same vitest run
// as the unit and server tests the cluster files ran alone at its end (about 75 s on one core of two), and
// the e2e tests came after them. Side by side, the cluster files run while the e2e tests run theirs.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/side-by-side.mjs "<command>" ["<command>" ...]');
  process.exit(2);
}

const run = (command, live) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, { shell: true, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('close', (code, signal) => {
      if (output.trim()) process.stdout.write(`\n${output.trimEnd()}\n`);
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(`${code === 0 ? 'ok' : 'FAILED'}: ${command} (${seconds} s${signal ? `, ${signal}` : ''})`);
      resolve(code === 0);
    });
    child.on('error', (err) => {
      console.log(`FAILED: ${command}: ${err.message}`);
      resolve(false);
    });
  });

const results = await Promise.all(commands.map((c, i) => run(c, i === 0)));
process.exit(results.every(Boolean) ? 0 : 1);

// Runs commands side by side, as many at a time as the machine has cores, each with its output kept and printed
// whole when it ends (never interleaved). Used by the checks before the tests and by the type check.
import { spawn } from 'node:child_process';
import os from 'node:os';

/**
 * @param {{ name: string, cmd: string, args: string[] }[]} jobs  longest first: they start in this order
 * @param {{ concurrency?: number }} [options]
 * @returns {Promise<boolean>} whether every job passed
 */
export async function runJobs(jobs, options = {}) {
  const concurrency = options.concurrency ?? Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  const queue = [...jobs];
  let ok = true;
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const started = Date.now();
      const { code, output } = await new Promise((resolve) => {
        const child = spawn(job.cmd, job.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
        let text = '';
        child.stdout.on('data', (d) => (text += d));
        child.stderr.on('data', (d) => (text += d));
        child.on('close', (c) => resolve({ code: c, output: text }));
        child.on('error', (err) => resolve({ code: 1, output: String(err) }));
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (output.trim()) process.stdout.write(`${output.trimEnd()}\n`);
      console.log(`${code === 0 ? 'ok' : 'FAILED'}: ${job.name} (${seconds} s)`);
      if (code !== 0) ok = false;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return ok;
}

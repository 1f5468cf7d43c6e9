// Keeps one CPU core busy, to prove that the tests hold on a loaded machine.
//
//   npm run burn -- npm test              runs the command while a core is busy; prints its time and the load
//   node scripts/burn.mjs -- npm test     the same
//   npm run burn                          burns until stopped (Ctrl-C)
//
// The burner is a child process spinning in a loop at normal priority, the way a second product, a browser or a
// build sharing the machine would take a core. The command's exit code is passed on.
import { spawn } from 'node:child_process';
import os from 'node:os';

const cores = Number(process.env.BURN_CORES ?? 1);
const burners = Array.from({ length: cores }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopBurners = () => {
  for (const b of burners) b.kill('SIGKILL');
};
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopBurners();
    process.exit(130);
  });
}

// `node scripts/burn.mjs -- cmd` and `npm run burn -- cmd` (npm drops the `--`) both run cmd.
const args = process.argv.slice(2);
const command = args[0] === '--' ? args.slice(1) : args;
if (command.length === 0) {
  console.log(`Burning ${cores} core(s) of ${os.cpus().length} until stopped (Ctrl-C).`);
} else {
  const started = Date.now();
  console.log(`Burning ${cores} core(s) of ${os.cpus().length} while running: ${command.join(' ')}`);
  const loads = [];
  const sampler = setInterval(() => loads.push(os.loadavg()[0]), 10_000);
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (code, signal) => {
    clearInterval(sampler);
    stopBurners();
    const seconds = Math.round((Date.now() - started) / 1000);
    const mean = loads.length ? (loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(2) : 'n/a';
    console.log(
      `\n${command.join(' ')}: exit ${code ?? signal} after ${Math.floor(seconds / 60)} min ${seconds % 60} s with ${cores} core(s) burned; ` +
        `load average (1 min) mean ${mean}, at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
    process.exit(code ?? 1);
  });
}

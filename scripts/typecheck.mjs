// Type-checks every workspace with its own tsconfig (browser, node and shared code differ in libs).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = ['packages/contracts', 'packages/geo', 'packages/formats', 'apps/server', 'apps/simulator', 'apps/web', 'e2e', 'bench'];
let failed = false;
for (const p of projects) {
  if (!existsSync(`${p}/tsconfig.json`)) continue;
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', p], { stdio: 'inherit' });
    console.log(`typecheck ok: ${p}`);
  } catch {
    failed = true;
    console.error(`typecheck FAILED: ${p}`);
  }
}
process.exit(failed ? 1 : 0);

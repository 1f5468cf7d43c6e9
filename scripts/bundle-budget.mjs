// Reports the gzip size of the JavaScript the sign-in page loads eagerly (entry script and its
// modulepreloads, as listed in the built index.html) and fails when it is over the budget.
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const BUDGET_KB = 250;
const dist = 'apps/web/dist';
const indexPath = join(dist, 'index.html');
if (!existsSync(indexPath)) {
  console.error(`bundle budget: ${indexPath} not found; run npm run build first`);
  process.exit(1);
}
const html = readFileSync(indexPath, 'utf8');
const base = '/nest/';
const refs = new Set();
for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) refs.add(m[1]);
for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) refs.add(m[1]);
for (const m of html.matchAll(/<link[^>]+href="([^"]+\.js)"[^>]+rel="modulepreload"/g)) refs.add(m[1]);
if (refs.size === 0) {
  console.error('bundle budget: no script found in index.html');
  process.exit(1);
}
let total = 0;
for (const ref of refs) {
  const file = join(dist, ref.startsWith(base) ? ref.slice(base.length) : ref);
  const gz = gzipSync(readFileSync(file), { level: 9 }).length;
  total += gz;
  console.log(`  ${(gz / 1024).toFixed(1).padStart(7)} KB gzip  ${ref}`);
}
const kb = total / 1024;
console.log(`bundle budget: initial JavaScript ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error(`bundle budget: over budget by ${(kb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}

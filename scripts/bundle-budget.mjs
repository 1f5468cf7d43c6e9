// Reports the gzip size of the JavaScript the sign-in page loads eagerly (entry script and its
// modulepreloads, as listed in the built index.html), and of the JavaScript the data screen needs before
// its first paint (the chunks of the guard and shell and of the data screen, with everything they import
// statically, beyond the sign-in page's), and fails when either is over its budget. The data screen's map,
// device panel, alarm center and dialogs are dynamic imports, fetched after the first paint: a static
// import of one of them shows here.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const BUDGET_KB = 250;
const DATA_SCREEN_BUDGET_KB = 200;
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
const gzipKb = (file) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;
let total = 0;
for (const ref of refs) {
  const file = join(dist, ref.startsWith(base) ? ref.slice(base.length) : ref);
  const gz = gzipKb(file);
  total += gz;
  console.log(`  ${gz.toFixed(1).padStart(7)} KB gzip  ${ref}`);
}
console.log(`bundle budget: initial JavaScript ${total.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
let failed = false;
if (total > BUDGET_KB) {
  console.error(`bundle budget: over budget by ${(total - BUDGET_KB).toFixed(1)} KB`);
  failed = true;
}

// The data screen: the static import closure of its chunks and the guard's, minus the sign-in page's.
const assets = join(dist, 'assets');
const files = readdirSync(assets);
const staticImports = (name) =>
  [...readFileSync(join(assets, name), 'utf8').matchAll(/(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]);
const closure = (roots) => {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop();
    if (seen.has(name) || !files.includes(name)) continue;
    seen.add(name);
    todo.push(...staticImports(name));
  }
  return seen;
};
const signIn = closure([...refs].map((ref) => ref.slice(ref.lastIndexOf('/') + 1)));
const roots = files.filter((f) => /^(PrivateApp|HomePage)-[\w-]+\.js$/.test(f));
if (roots.length !== 2) {
  console.error(`bundle budget: expected one PrivateApp and one HomePage chunk, found ${roots.join(', ') || 'none'}`);
  process.exit(1);
}
const screen = [...closure(roots)].filter((f) => !signIn.has(f));
const screenKb = screen.reduce((n, f) => n + gzipKb(join(assets, f)), 0);
console.log(
  `bundle budget: the data screen before its first paint ${screenKb.toFixed(1)} KB gzip in ${screen.length} chunks ` +
    `beyond the sign-in page's (budget ${DATA_SCREEN_BUDGET_KB} KB)`,
);
if (screenKb > DATA_SCREEN_BUDGET_KB) {
  const biggest = screen.map((f) => [f, gzipKb(join(assets, f))]).sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.error(`bundle budget: data screen over budget by ${(screenKb - DATA_SCREEN_BUDGET_KB).toFixed(1)} KB; largest: ${biggest.map(([f, kb]) => `${f} ${kb.toFixed(1)} KB`).join(', ')}`);
  failed = true;
}
if (failed) process.exit(1);

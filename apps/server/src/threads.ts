import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The URL of tsx's ESM loader API (`tsx/esm/api`, its `import` export), found through its package.json:
 * vitest's module runner has no import.meta.resolve, and the CommonJS build that require resolves to cannot
 * be imported from a worker.
 */
function tsxRegisterUrl(from: string): string {
  const pkgFile = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}

/**
 * A worker thread on the server module `module` (a path relative to `from`, without extension), `from`
 * being the caller's import.meta.url. Run from TypeScript sources (tsx, tests, and the built server, whose
 * bundled modules keep their source URLs), a worker does not inherit the loader: it registers tsx before it
 * imports the module. Run from JavaScript, it starts the module's `.js` beside the caller.
 */
export function moduleWorker(from: string, module: string, options: WorkerOptions = {}): Worker {
  if (from.endsWith('.ts')) {
    const api = tsxRegisterUrl(from);
    const file = new URL(`${module}.ts`, from).href;
    return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); })`, { ...options, eval: true });
  }
  return new Worker(new URL(`${module}.js`, from), options);
}

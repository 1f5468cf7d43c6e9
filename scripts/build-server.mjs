// Builds the product's entry points into apps/server/dist as plain JavaScript, so the product starts without
// compiling TypeScript on every start (`npm start`, the e2e product, spawned tests): the server's main.ts and
// cli.ts (main.js, cli.js: the server alone) and the launcher (apps/launcher/src/main.ts -> launcher.js: the
// server with the simulator's demo fleet, what `npm start` runs).
//
// esbuild bundles our own code (apps/server, apps/launcher, apps/simulator and the @nest packages, which ship
// TypeScript sources) and leaves every npm package external, loaded from node_modules as usual. Code that
// finds files next to itself through import.meta.url (the web dist, the terrain sample, the simulator's render
// worker) keeps its source file's URL: each import.meta.url is rewritten to that source file's address,
// relative to the bundle, so the tree can be moved as a whole. The entry points keep their own
// import.meta.url: they compare it with process.argv[1] to know they were started as programs. The launcher
// is a build of its own: in it the server's main.ts is not an entry point, so it gets its source URL and
// does not start itself.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'apps/server/dist');

/** Bare imports stay external, except our workspace packages (TypeScript sources: they must be bundled). */
const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@nest/') || args.kind === 'entry-point') return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** The builds: each one's entry points (output name -> source). */
const builds = [
  { main: 'apps/server/src/main.ts', cli: 'apps/server/src/cli.ts' },
  { launcher: 'apps/launcher/src/main.ts' },
];

/** import.meta.url of a bundled source file -> that file's URL, computed from the bundle's own URL. */
const sourceUrls = (entryPoints) => ({
  name: 'source-urls',
  setup(b) {
    const entryFiles = new Set(Object.values(entryPoints).map((f) => path.join(root, f)));
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url') || entryFiles.has(args.path)) return { contents: text, loader: 'ts' };
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      const expr = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', expr), loader: 'ts' };
    });
  },
});

/**
 * Writes a built file only when its content changed, through a temporary file renamed over the old one: a
 * program started from the dist meanwhile (the e2e product and its CLI run while the server tests' global
 * setup builds again) reads either the whole old file or the whole new one, never one being written.
 */
async function writeChanged(file) {
  const old = await readFile(file.path).catch(() => null);
  if (old && Buffer.compare(old, file.contents) === 0) return;
  await mkdir(path.dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}.tmp`;
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
}

/** Builds the bundles (side by side); answers how long it took (ms). */
export async function buildServer() {
  const started = Date.now();
  await Promise.all(
    builds.map(async (entryPoints) => {
      const result = await build({
        entryPoints,
        absWorkingDir: root,
        outdir,
        bundle: true,
        // One file per entry point, no shared chunks: the rewritten import.meta.url below is relative to
        // outdir, so every bundled module must end up in a file directly inside it.
        splitting: false,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        sourcemap: 'linked',
        logLevel: 'warning',
        plugins: [externals, sourceUrls(entryPoints)],
        write: false,
      });
      await Promise.all(result.outputFiles.map(writeChanged));
    }),
  );
  return Date.now() - started;
}

export const SERVER_DIST = outdir;

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const ms = await buildServer();
  console.log(`server built into ${path.relative(root, outdir)} in ${ms} ms`);
  // The offline basemap's glyph PBFs (apps/server/src/maps/glyphs.ts), drawn once per glyph version.
  execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/maps/build-glyphs.ts'], { cwd: root, stdio: 'inherit' });
}

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Text output worth compressing (fonts and images are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;

/**
 * Writes `.br` and `.gz` beside every compressible file of the build over 1 KB, once at build time; the
 * server sends them to browsers that accept them (@fastify/static `preCompressed`). A cold sign-in moves
 * about a quarter of the bytes (the map chunk is 1.06 MB plain, under 0.3 MB compressed).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'nest-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < 1024) continue;
        const data = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
      }
    },
  };
}

const API_TARGET = process.env.NEST_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/nest/',
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // MapLibre (the lazy FleetMap chunk) is about 1.1 MB on its own; nothing eager comes near this.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The framework every page needs, cached across releases of the app code.
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/, priority: 30 },
            // Shared contracts and their two dependencies (schemas, md5), used by login and the shell alike.
            // src/csp.ts rides along so that it runs after zod loads and before any contracts schema is built.
            {
              name: 'contracts',
              test: /(packages[\\/]contracts[\\/]|node_modules[\\/](zod|js-md5)[\\/]|apps[\\/]web[\\/]src[\\/]csp\.ts$)/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
});

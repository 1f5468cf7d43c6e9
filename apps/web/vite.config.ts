import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const API_TARGET = process.env.NEST_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/nest/',
  plugins: [react()],
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

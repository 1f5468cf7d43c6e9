import { mkdir, writeFile } from 'node:fs/promises';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { MENU, MENU_PATH, menuItemSchema, onlineBasemapOrigins } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { CONTENT_SECURITY_POLICY } from './headers.js';
import { MISSING_ASSET_TEXT, NOT_BUILT_TEXT } from './web.js';

const BIG_CHUNK = `export const text = ${JSON.stringify('drone nest '.repeat(500))};\n`;

let server: TestServer;
let withWeb: FastifyInstance;
beforeAll(async () => {
  server = await startTestServer();
  const dist = path.join(server.dataDir, 'web-dist');
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>nest</title><div id="root"></div>');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg/>');
  // A chunk the build compressed ahead (apps/web/vite.config.ts writes .br and .gz beside it).
  await writeFile(path.join(dist, 'assets', 'big-def456.js'), BIG_CHUNK);
  await writeFile(path.join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(BIG_CHUNK));
  await writeFile(path.join(dist, 'assets', 'big-def456.js.gz'), gzipSync(BIG_CHUNK));
  withWeb = await server.rebuild({ webDist: dist });
});
afterAll(async () => server?.close());

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
}

describe('menu.json', () => {
  it('answers the contracts MENU without caching, whatever the cache-buster', async () => {
    for (const url of [MENU_PATH, `${MENU_PATH}?t=${Date.now()}`]) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json();
      expect(body).toEqual(JSON.parse(JSON.stringify(MENU)));
      for (const item of body) menuItemSchema.parse(item);
      expectSecurityHeaders(res.headers);
    }
  });
});

describe('web app', () => {
  it('sends the compressed copy the build made to a browser that accepts it, the plain file otherwise', async () => {
    const url = '/nest/assets/big-def456.js';
    const br = await withWeb.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_CHUNK);
    const gz = await withWeb.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_CHUNK);
    const plain = await withWeb.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_CHUNK);
  });

  it('without a build, /nest/ says how to build it', async () => {
    for (const url of ['/nest/', '/nest/userManage']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(503);
      expect(res.body).toBe(NOT_BUILT_TEXT);
      expectSecurityHeaders(res.headers);
    }
  });

  it('redirects / and /nest to /nest/', async () => {
    for (const app of [server.app, withWeb]) {
      for (const url of ['/', '/nest']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe('/nest/');
      }
    }
  });

  it('serves index.html at /nest/ and for unknown paths below it (history routing), never cached', async () => {
    for (const url of ['/nest/', '/nest/index.html', '/nest/userManage', '/nest/layout/home?x=1']) {
      const res = await withWeb.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expectSecurityHeaders(res.headers);
    }
  });

  it('caches hashed assets for long and answers 404 for missing files', async () => {
    const asset = await withWeb.inject({ method: 'GET', url: '/nest/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(asset.headers);
    const icon = await withWeb.inject({ method: 'GET', url: '/nest/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    // A chunk of an older or newer build: a real 404 (not the app's index.html), never cached, so a lazy
    // import fails at once and the page can offer a reload.
    for (const url of ['/nest/assets/missing.js', '/nest/assets/Page-0ld.js?v=1', '/nest/assets/missing', '/nest/assets/']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const missing = await withWeb.inject({ method, url });
        expect(missing.statusCode, `${method} ${url}`).toBe(404);
        expect(missing.headers['content-type'], url).toMatch(/^text\/plain/);
        expect(missing.headers['cache-control'], url).toBe('no-store');
        if (method === 'GET') expect(missing.body, url).toBe(MISSING_ASSET_TEXT);
        expectSecurityHeaders(missing.headers);
      }
    }
  });

  it('keeps API errors as envelopes with the headers', async () => {
    const res = await withWeb.inject({ method: 'POST', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(40400);
    expectSecurityHeaders(res.headers);
  });
});

describe('content security policy', () => {
  const directive = (name: string) =>
    CONTENT_SECURITY_POLICY.split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([n]) => n === name)
      ?.slice(1) ?? [];

  it('lets the online basemaps load tiles and nothing else from outside', () => {
    const origins = onlineBasemapOrigins();
    expect(origins).toContain('https://tile.openstreetmap.org');
    for (const name of ['img-src', 'connect-src']) {
      const sources = directive(name);
      for (const o of origins) expect(sources).toContain(o);
      expect(sources.filter((s) => s.startsWith('https://')).sort()).toEqual([...origins].sort());
    }
    for (const name of ['default-src', 'script-src', 'style-src', 'media-src', 'worker-src']) {
      expect(directive(name).some((s) => s.startsWith('https://'))).toBe(false);
    }
  });
});

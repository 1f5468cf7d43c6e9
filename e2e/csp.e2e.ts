import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser } from 'playwright-core';
import { launch, newPage, signIn } from './support/browser.js';
import { ROOT } from './support/product.js';

/**
 * The Content-Security-Policy of the started product is strict, the built index.html needs nothing it
 * forbids, and Chromium reports no violation on the pages that use the most (data screen map with its
 * workers, administration screens).
 */
const { baseUrl } = sharedProduct();
const admin = inject('admin');
const ROUTES = ['/nest/', '/nest/login', '/nest/userManage', '/nest/auditLog', '/nest/layout/home?x=1'];

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

function parsePolicy(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

describe('content security policy', () => {
  it('is served strict on the app, its routes, its assets and its API', async () => {
    const index = readFileSync(join(ROOT, 'apps/web/dist/index.html'), 'utf8');
    const asset = index.match(/<script[^>]+src="([^"]+)"/)![1]!;
    const policies = new Set<string>();
    for (const url of [...ROUTES, asset, '/api/static/menu.json']) {
      const res = await fetch(baseUrl + url);
      expect(res.status, url).toBe(200);
      const policy = res.headers.get('content-security-policy');
      expect(policy, url).toBeTruthy();
      policies.add(policy!);
    }
    expect(policies.size).toBe(1);
    const csp = parsePolicy([...policies][0]!);

    const script = csp.get('script-src') ?? csp.get('default-src')!;
    expect(script).toEqual(["'self'"]);
    for (const [name, sources] of csp) {
      for (const s of sources) {
        // No wildcard: no `*` host part and no bare scheme (`https:`, `ws:`) that allows any host.
        expect(s.includes('*'), `${name} ${s}`).toBe(false);
        expect(/^[a-z][a-z0-9+.-]*:$/.test(s) && !['data:', 'blob:'].includes(s), `${name} ${s}`).toBe(false);
        expect(["'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'"].includes(s), `${name} ${s}`).toBe(false);
      }
    }
    for (const name of ['default-src', 'script-src', 'worker-src', 'connect-src']) {
      expect(csp.get(name) ?? [], name).not.toContain("'unsafe-inline'");
    }
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
  });

  it('blocks nothing the built index.html needs: no inline script, handler or javascript: URL', async () => {
    const index = readFileSync(join(ROOT, 'apps/web/dist/index.html'), 'utf8');
    expect(await (await fetch(`${baseUrl}/nest/`)).text()).toBe(index);
    const scripts = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs, 'every script is a file').toMatch(/\bsrc="\/nest\/assets\/[^"]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(index).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
    expect(index).not.toMatch(/javascript:/i);
    expect(index).not.toMatch(/<base\b/i);
    // Every referenced file is same-origin.
    for (const [, ref] of index.matchAll(/(?:src|href)="([^"]+)"/g)) expect(ref!.startsWith('/nest/'), ref).toBe(true);
  });

  it('lets Chromium run the console without a single violation', async () => {
    const page = await newPage(browser, { lang: 'en' });
    const violations: string[] = [];
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    page.on('console', (m) => {
      if (/CSP violation|Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await signIn(page, baseUrl, admin.account, admin.password);
    // Each screen is checked once it has loaded everything it loads on opening: its main content is shown
    // and its network has gone quiet (no request for Playwright's 500 ms). The check is for the absence of
    // violations, so it must come after all of the page's loading.
    const screens: [string, string][] = [
      // The data screen: MapLibre, its blob: workers and tiles, the push WebSocket; the fleet's markers are
      // drawn once the map has its style and the devices.
      ['/nest/home', '.fleet-marker, .fleet-cluster'],
      ['/nest/auditLog', '[data-testid=audit-log-table]'],
      ['/nest/userManage', '[data-testid=user-manage]'],
      ['/nest/equipment', '[data-testid=equipment-table]'],
    ];
    for (const [path, content] of screens) {
      await page.goto(baseUrl + path);
      await page.locator(content).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    // A round trip to the page: console messages it sent before are delivered by then.
    await page.evaluate(() => undefined);
    expect(violations).toEqual([]);
    await page.context().close();
  });
});

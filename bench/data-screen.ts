/**
 * Data screen load (`npm run bench:screen`): from the sign-in call's answer to an interactive /home, in
 * headless Chromium against the built product, as a user signs in.
 *
 * Builds nothing: run `npm run build` first (the script stops with a hint when apps/web/dist or
 * apps/server/dist is missing). It starts the product as the e2e run does (e2e/support/product.ts: built
 * server, embedded SQLite and broker, simulated fleet, ports from the OS, a data directory of its own),
 * launches Debian's Chromium through playwright-core (e2e/support/browser.ts), and per run, in a fresh
 * browser context (cold cache):
 *
 * 1. baseline, static page: /nest/ with JavaScript off, navigation to its load event (HTML, CSS, icon);
 * 2. baseline, login page: /nest/ navigation start to the login form painted and the main thread quiet;
 * 3. cold sign-in: the login form filled and submitted; from the login call's answer (responseEnd of its
 *    Resource Timing entry, the moment the browser has the answer) to: the shell's header painted, the first
 *    device rows painted, the KPI figures painted, the map drawn (FleetMap's data-drawn, set on the map's
 *    first `idle`: style and tiles loaded and drawn), its first device marker or cluster (the map feeds
 *    the devices to its source after that idle, so the markers are waited for too), and interactive: all
 *    of these, and then the main thread quiet (no long task, > 50 ms, for QUIET_MS); interactive is the
 *    later of "all painted" and the end of the last long task before the quiet window;
 * 4. warm sign-in: back to the login page in the same context (the login route clears the session), the
 *    same measure with the browser cache of the first sign-in.
 *
 * Painted = the first animation frame whose DOM has the element (a requestAnimationFrame probe installed
 * before any page script). Bytes are Resource Timing's decoded body sizes of the JS and CSS the page
 * fetched from the first input in the login form on (the login page may fetch the next screen's code while
 * the user types; transferred: what came over the network, 0 for a cache hit); requests are every request
 * the page and its workers made from the first input to interactive (map tiles included).
 *
 * With `--devices N` the administrator's company has a city's fleet of N more devices beside the demo
 * devices (e2e/support/product.ts, ProductFleet): registered before the server starts, `--online` of them
 * (a share, default 0.8) run by the simulator in a process of its own at 1 Hz, so the screen lists N rows,
 * draws N markers and takes a fleet batch of them every second while it loads.
 *
 * Prints median and max per figure and the load average at start and end; writes the generated block of
 * docs/performance.md unless --no-doc (with --devices, the city's fleet block). Not a test: it fails on
 * nothing but a page error (an uncaught exception, or an answer >= 500), which exits 1.
 *
 * `--detail` prints each sign-in's requests, long tasks, marks and DOM size; `--profile FILE` writes a CPU
 * profile and `--trace FILE` a Chromium trace of the first counted cold sign-in.
 *
 *   npm run bench:screen -- [--runs 5] [--quiet-ms 500] [--devices 0] [--online 0.8] [--detail] [--profile FILE] [--trace FILE] [--no-doc]
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch } from '../e2e/support/browser.js';
import { ADMIN, ROOT, startProduct, type Product } from '../e2e/support/product.js';
import { replaceBlock } from './stats.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
};
const RUNS = arg('runs', 5);
const QUIET_MS = arg('quiet-ms', 500);
/** Devices of the city's fleet beside the demo devices (0: the demo devices only), and the share online. */
const DEVICES = arg('devices', 0);
const ONLINE = arg('online', 0.8);
const WRITE_DOC = !args.includes('--no-doc');
/** Prints every sign-in's requests (timed from the login answer), long tasks and marks. */
const DETAIL = args.includes('--detail');
/** `--profile FILE`: a CPU profile (.cpuprofile) of the page's main thread over the first counted cold sign-in. */
const PROFILE = (() => {
  const i = args.indexOf('--profile');
  return i >= 0 ? args[i + 1] : undefined;
})();
/** `--trace FILE`: a Chromium trace (devtools timeline: style, layout, paint, scripts) of the same sign-in. */
const TRACE = (() => {
  const i = args.indexOf('--trace');
  return i >= 0 ? args[i + 1] : undefined;
})();
let profiled = false;
const DOC = path.join(ROOT, 'docs', 'performance.md');
/** The generated block: one for the demo fleet, one for a city's fleet (--devices). */
const BLOCK = DEVICES > 0 ? 'data-screen-fleet' : 'data-screen';
const BEGIN = `<!-- ${BLOCK}:begin (generated by bench/data-screen.ts) -->`;
const END = `<!-- ${BLOCK}:end -->`;
const LIMIT_MS = 120_000;
const LOAD_AT_START = os.loadavg();

/** What the probe marks, by selector: the first animation frame in which the element is in the DOM. */
const MARKS = {
  login: '[data-testid="login-submit"]',
  shell: '[data-testid="app-header"]',
  lists: '[data-testid^="device-item-"]',
  kpis: '[data-testid="dashboard-kpis"] .kpi-num',
  map: '[data-testid="fleet-map"][data-drawn="1"]',
  markers: '.fleet-marker, .fleet-cluster',
} as const;
type MarkName = keyof typeof MARKS;

interface Probe {
  armed: number | null;
  clicked: number | null;
  marks: Partial<Record<MarkName, number>>;
  long: [number, number][];
  arm(): void;
}
declare global {
  interface Window {
    __bench: Probe;
  }
}

/** Installed in every document before its scripts: the paint marks and the long tasks. */
function probe(marks: Record<string, string>): void {
  const b: Probe = {
    armed: null,
    clicked: null,
    marks: {},
    long: [],
    arm() {
      b.marks = {};
      b.armed = performance.now();
    },
  };
  window.__bench = b;
  performance.setResourceTimingBufferSize(10_000);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.long.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const tick = (now: number) => {
    for (const [name, selector] of Object.entries(marks)) {
      if (b.marks[name as MarkName] === undefined && document.querySelector(selector)) b.marks[name as MarkName] = now;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Waits until every mark of `needed` is set and no long task has run for `quietMs`; answers that time. */
async function untilQuiet(page: Page, needed: MarkName[], quietMs: number): Promise<{ painted: number; interactive: number }> {
  const handle = await page.waitForFunction(
    ({ needed, quietMs }) => {
      const b = window.__bench;
      const times = needed.map((n) => b.marks[n]);
      if (times.some((t) => t === undefined)) return null;
      const painted = Math.max(...(times as number[]));
      const lastLong = b.long.reduce((m, [s, d]) => Math.max(m, s + d), 0);
      const interactive = Math.max(painted, lastLong);
      return performance.now() - interactive >= quietMs ? { painted, interactive } : null;
    },
    { needed, quietMs },
    { polling: 100, timeout: LIMIT_MS },
  );
  return (await handle.jsonValue())!;
}

interface Traffic {
  requests: number;
  api: number;
  tiles: number;
  glyphs: number;
}

/** Every request the page and its workers make (Playwright reports the workers' requests on the page). */
function countRequests(page: Page): { since(): void; read(): Traffic } {
  let t: Traffic = { requests: 0, api: 0, tiles: 0, glyphs: 0 };
  page.on('requestfinished', (request) => {
    const path = new URL(request.url()).pathname;
    t.requests++;
    if (path.includes('/api/')) t.api++;
    // Vector tiles of the basemap or of a map package; glyph ranges (also .pbf) are counted apart.
    if (path.includes('/tiles/glyphs/')) t.glyphs++;
    else if (path.endsWith('.pbf')) t.tiles++;
  });
  return {
    since: () => {
      t = { requests: 0, api: 0, tiles: 0, glyphs: 0 };
    },
    read: () => ({ ...t }),
  };
}

interface SignIn {
  /** Login call: its fetch start to the answer, and the server's part (request sent to first byte). */
  call: number;
  server: number;
  /** Submit (the click) to the login call's answer: public keys, password sealing, the call. */
  submit: number;
  /** From the login call's answer. */
  shell: number;
  lists: number;
  kpis: number;
  map: number;
  markers: number;
  painted: number;
  interactive: number;
  jsKb: number;
  cssKb: number;
  transferredKb: number;
  requests: number;
  /** Page requests answered from the browser cache (Resource Timing: a body, nothing transferred). */
  cached: number;
  api: number;
  tiles: number;
  glyphs: number;
  longTasks: number;
  longTaskMs: number;
}

async function signInMeasured(page: Page, traffic: ReturnType<typeof countRequests>, profile?: string, trace?: string): Promise<SignIn> {
  const browser = page.context().browser();
  if (trace && browser) await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] });
  const cdp = profile ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
  }
  // Counted from the first input: the login page may fetch the next screen's code while the user types.
  await page.evaluate(() => window.__bench.arm());
  traffic.since();
  await page.getByTestId('login-account').fill(ADMIN.account);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.evaluate(() => (window.__bench.clicked = performance.now()));
  await page.getByTestId('login-submit').click();
  const needed: MarkName[] = ['lists', 'kpis', 'map', 'markers'];
  const { painted, interactive } = await untilQuiet(page, needed, QUIET_MS);
  if (cdp && profile) {
    const { profile: data } = await cdp.send('Profiler.stop');
    await writeFile(profile, JSON.stringify(data));
    await cdp.detach();
    console.log(`CPU profile of the cold sign-in written: ${profile}`);
  }
  if (trace && browser) {
    await writeFile(trace, await browser.stopTracing());
    console.log(`Chromium trace of the cold sign-in written: ${trace}`);
  }
  const t = traffic.read();
  const r = await page.evaluate(() => {
    const b = window.__bench;
    const armed = b.armed ?? 0;
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const login = entries.filter((e) => e.name.includes('/user/login') && e.startTime >= armed).at(-1);
    if (!login) return null;
    const clicked = b.clicked ?? armed;
    const since = entries.filter((e) => e.startTime >= armed);
    const sum = (re: RegExp, key: 'decodedBodySize' | 'transferSize') =>
      since.filter((e) => re.test(new URL(e.name).pathname)).reduce((n, e) => n + e[key], 0);
    const long = b.long.filter(([s]) => s >= armed);
    const waterfall = since.map((e) => ({ name: new URL(e.name).pathname + new URL(e.name).search, start: e.startTime, end: e.responseEnd, size: e.decodedBodySize, transfer: e.transferSize }));
    return {
      waterfall,
      long,
      clicked,
      login: { start: login.startTime, requestStart: login.requestStart, responseStart: login.responseStart, end: login.responseEnd },
      marks: b.marks,
      js: sum(/\.m?js$/, 'decodedBodySize'),
      css: sum(/\.css$/, 'decodedBodySize'),
      transferred: since.reduce((n, e) => n + e.transferSize, 0),
      cached: since.filter((e) => e.transferSize === 0 && e.decodedBodySize > 0).length,
      longTasks: long.length,
      longTaskMs: long.reduce((n, [, d]) => n + d, 0),
    };
  });
  if (!r) throw new Error('no Resource Timing entry for the login call');
  const from = r.login.end;
  if (DETAIL) {
    console.log(`requests from the first input (ms from the login answer, decoded KB, transferred KB):`);
    for (const w of r.waterfall) console.log(`  ${(w.start - from).toFixed(0).padStart(6)} -> ${(w.end - from).toFixed(0).padStart(6)}  ${(w.size / 1024).toFixed(1).padStart(7)} ${(w.transfer / 1024).toFixed(1).padStart(7)}  ${w.name}`);
    console.log(`long tasks (start from the login answer, duration): ${r.long.map(([s, d]) => `${(s - from).toFixed(0)}+${d.toFixed(0)}`).join(', ')}`);
    console.log(`marks: ${Object.entries(r.marks).map(([k, v]) => `${k} ${(v! - from).toFixed(0)}`).join(', ')}; interactive ${(interactive - from).toFixed(0)}`);
    const dom = await page.evaluate(() => ({
      elements: document.getElementsByTagName('*').length,
      rows: document.querySelectorAll('[data-testid^="device-item-"]').length,
      markers: document.querySelectorAll('.maplibregl-marker').length,
    }));
    console.log(`DOM at interactive: ${dom.elements} elements, ${dom.rows} device rows, ${dom.markers} map markers`);
  }
  const at = (n: MarkName) => (r.marks[n] === undefined ? NaN : r.marks[n]! - from);
  return {
    call: r.login.end - r.login.start,
    server: r.login.responseStart - r.login.requestStart,
    submit: from - r.clicked,
    shell: at('shell'),
    lists: at('lists'),
    kpis: at('kpis'),
    map: at('map'),
    markers: at('markers'),
    painted: painted - from,
    interactive: interactive - from,
    jsKb: r.js / 1024,
    cssKb: r.css / 1024,
    transferredKb: r.transferred / 1024,
    requests: t.requests,
    cached: r.cached,
    api: t.api,
    tiles: t.tiles,
    glyphs: t.glyphs,
    longTasks: r.longTasks,
    longTaskMs: r.longTaskMs,
  };
}

interface Run {
  staticPage: number;
  loginPage: number;
  loginPageKb: number;
  cold: SignIn;
  warm: SignIn;
}

const errors: string[] = [];
const consoleErrors: string[] = [];

function watch(page: Page): void {
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('response', (res) => {
    if (res.status() >= 500) errors.push(`HTTP ${res.status()} ${res.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
}

async function newContext(browser: Browser, javaScriptEnabled = true): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, javaScriptEnabled });
  context.setDefaultTimeout(LIMIT_MS);
  context.setDefaultNavigationTimeout(LIMIT_MS);
  return context;
}

async function oneRun(browser: Browser, product: Product, counted: boolean): Promise<Run> {
  const url = `${product.baseUrl}/nest/`;

  // Baseline 1: the static page, JavaScript off.
  const plain = await newContext(browser, false);
  const plainPage = await plain.newPage();
  watch(plainPage);
  const t0 = performance.now();
  await plainPage.goto(url, { waitUntil: 'load' });
  const staticPage = performance.now() - t0;
  await plain.close();

  const context = await newContext(browser);
  // tsx keeps function names by wrapping inner functions in __name(); functions sent to the page need it too.
  await context.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  await context.addInitScript(probe, MARKS as unknown as Record<string, string>);
  const page = await context.newPage();
  watch(page);
  const traffic = countRequests(page);

  // Baseline 2: the login page, cold.
  await page.goto(url);
  const login = await untilQuiet(page, ['login'], QUIET_MS);
  const loginPageKb = await page.evaluate(
    () => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => /\.(m?js|css)$/.test(new URL(e.name).pathname)).reduce((n, e) => n + e.decodedBodySize, 0) / 1024,
  );

  const first = counted && !profiled;
  if (counted) profiled = true;
  const cold = await signInMeasured(page, traffic, first ? PROFILE : undefined, first ? TRACE : undefined);
  // Signing out: the login route ends the session; a new document, the browser cache stays.
  await page.goto(url);
  await untilQuiet(page, ['login'], QUIET_MS);
  const warm = await signInMeasured(page, traffic);
  await context.close();
  return { staticPage, loginPage: login.interactive, loginPageKb, cold, warm };
}

// ------------------------------------------------------------------------------------------- report

const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const max = (xs: number[]): number => Math.max(...xs.filter(Number.isFinite));
const fmt = (v: number, unit: string): string => (Number.isFinite(v) ? `${v.toFixed(0)}${unit}` : '–');
const cell = (xs: number[], unit: string): string => `${fmt(median(xs), unit)} / ${fmt(max(xs), unit)}`;
const load = (l: number[]): string => l.map((x) => x.toFixed(1)).join(' / ');

function table(runs: Run[], loadAtEnd: number[]): string[] {
  const rows: [string, (r: SignIn) => number, string][] = [
    ['login call (fetch start -> answer)', (s) => s.call, ' ms'],
    ['  of which server (request sent -> first byte)', (s) => s.server, ' ms'],
    ['submit click -> login answer (keys, sealing, call)', (s) => s.submit, ' ms'],
    ['login answer -> shell header painted', (s) => s.shell, ' ms'],
    ['login answer -> device rows painted', (s) => s.lists, ' ms'],
    ['login answer -> KPI figures painted', (s) => s.kpis, ' ms'],
    ['login answer -> map drawn (first idle)', (s) => s.map, ' ms'],
    ['login answer -> map markers', (s) => s.markers, ' ms'],
    ['login answer -> rows, KPIs, map and markers all painted', (s) => s.painted, ' ms'],
    [`**login answer -> interactive** (all painted, then ${QUIET_MS} ms without a long task)`, (s) => s.interactive, ' ms'],
    ['long tasks (> 50 ms) from the first input, count', (s) => s.longTasks, ''],
    ['long tasks from the first input, total', (s) => s.longTaskMs, ' ms'],
    ['JS fetched from the first input (decoded)', (s) => s.jsKb, ' KB'],
    ['CSS fetched from the first input (decoded)', (s) => s.cssKb, ' KB'],
    ['transferred from the first input (all Resource Timing entries)', (s) => s.transferredKb, ' KB'],
    ['requests from the first input to interactive (page and workers)', (s) => s.requests, ''],
    ['  of which answered by the browser cache', (s) => s.cached, ''],
    ['  of which under /api/ (calls, static data, tiles, glyphs)', (s) => s.api, ''],
    ['  of which map tiles', (s) => s.tiles, ''],
    ['  of which glyph ranges of the map labels', (s) => s.glyphs, ''],
  ];
  const login = median(runs.map((r) => r.loginPage));
  const ratio = (xs: number[]) => `${(median(xs) / login).toFixed(2)} ×`;
  return [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ` +
      `Node ${process.version}, ${os.platform()} ${os.release()}, ${RUNS} runs (after one warm-up run); ` +
      (DEVICES > 0
        ? `the administrator's company has ${DEVICES} more devices than the demo fleet, ${Math.round(DEVICES * ONLINE)} of them online (simulated in a process of their own, telemetry at 1 Hz); `
        : 'the demo fleet only (6 devices); ') +
      `load average at start ${load(LOAD_AT_START)}, at the end ${load(loadAtEnd)} (1 / 5 / 15 min).`,
    '',
    'Baselines, same runs: the static page (/nest/ with JavaScript off, to its load event) ' +
      `${cell(runs.map((r) => r.staticPage), ' ms')}; the login page cold (navigation start -> form painted, ` +
      `then ${QUIET_MS} ms without a long task) ${cell(runs.map((r) => r.loginPage), ' ms')}, ` +
      `${fmt(median(runs.map((r) => r.loginPageKb)), ' KB')} of JS and CSS (median / max).`,
    '',
    '| figure (median / max) | cold cache | warm cache (second sign-in) |',
    '|---|---|---|',
    ...rows.map(([name, f, unit]) => `| ${name} | ${cell(runs.map((r) => f(r.cold)), unit)} | ${cell(runs.map((r) => f(r.warm)), unit)} |`),
    `| login answer -> interactive, ÷ login page baseline | ${ratio(runs.map((r) => r.cold.interactive))} | ${ratio(runs.map((r) => r.warm.interactive))} |`,
  ];
}

async function main(): Promise<void> {
  for (const built of ['apps/web/dist/index.html', 'apps/server/dist/launcher.js']) {
    if (!existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first (this bench builds nothing)`);
  }
  console.log(`data screen bench: ${RUNS} runs, load average ${load(LOAD_AT_START)}`);
  const fleet = DEVICES > 0 ? { devices: DEVICES, online: ONLINE } : undefined;
  if (fleet) console.log(`city fleet: ${DEVICES} devices, ${Math.round(ONLINE * 100)} % of them simulated (online)`);
  const product = await startProduct({ DEMO_MISSIONS: 'off', SIM_WEATHER: 'calm' }, { fleet });
  let browser: Browser | null = null;
  try {
    browser = await launch();
    // Warm-up (not counted): the server's first answers, its first tiles and the browser's first start.
    await oneRun(browser, product, false);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await oneRun(browser, product, true);
      runs.push(r);
      console.log(
        `run ${i + 1}: login page ${r.loginPage.toFixed(0)} ms; cold: call ${r.cold.call.toFixed(0)} ms, rows ${r.cold.lists.toFixed(0)}, ` +
          `KPIs ${r.cold.kpis.toFixed(0)}, map ${r.cold.map.toFixed(0)}, interactive ${r.cold.interactive.toFixed(0)} ms, ` +
          `${r.cold.requests} requests; warm: interactive ${r.warm.interactive.toFixed(0)} ms; load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
    const lines = table(runs, os.loadavg());
    console.log(`\n${lines.join('\n')}\n`);
    if (consoleErrors.length) console.log(`console errors (${consoleErrors.length}), first: ${consoleErrors.slice(0, 5).join(' | ')}`);
    if (WRITE_DOC) {
      const doc = await readFile(DOC, 'utf8');
      await writeFile(DOC, replaceBlock(doc, BEGIN, END, [BEGIN, '', ...lines, '', END].join('\n')));
      console.log(`wrote ${path.relative(ROOT, DOC)}`);
    }
  } finally {
    await browser?.close();
    await product.stop();
  }
  if (errors.length) {
    console.error(`page errors (${errors.length}):\n${[...new Set(errors)].join('\n')}`);
    process.exitCode = 1;
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

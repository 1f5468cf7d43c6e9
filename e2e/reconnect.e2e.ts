import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PUBLIC_KEYS_PATH, PUSH_PATH, PushMsgId, ResultCode, publicKeysSchema, sealPassword } from '@nest/contracts';
import { ApiClient } from './support/api.js';
import { launch, newPage, signIn } from './support/browser.js';
import { ADMIN, startRestartableProduct, type RestartableProduct } from './support/product.js';
import { until } from './support/wait.js';

/**
 * The data screen's push connection across a restart of the server process, and the end of a session
 * while the screen is open. A product of this file's own (same settings as the run's: no demo missions,
 * simulated time 15x, calm weather), so its process can be stopped and started again on the same ports
 * and data directory without touching the product the other files use.
 */

let product: RestartableProduct;
let browser: Browser;
beforeAll(async () => {
  product = await startRestartableProduct({ DEMO_MISSIONS: 'off', SIM_TIME_SCALE: '15', SIM_WEATHER: 'calm' });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  if (product) {
    const lines = product.log().trim().split('\n').filter(Boolean);
    if (lines.length > 0) console.log(`\nThe restarted product's log (last ${Math.min(40, lines.length)} lines):\n${lines.slice(-40).join('\n')}\n`);
    await product.stop();
  }
});

interface Frame {
  /** 1 for the page's first push socket, 2 for the next, ... */
  socket: number;
  dir: 'sent' | 'received';
  msg_id: number;
  code?: number;
  msg?: string;
  data: unknown;
}

/** Every frame of the page's push sockets, in the order the browser saw them, and which sockets closed. */
function recordPush(page: Page): { frames: Frame[]; opened: () => number; closed: Set<number> } {
  const frames: Frame[] = [];
  const closed = new Set<number>();
  let sockets = 0;
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith(PUSH_PATH)) return;
    const socket = ++sockets;
    const keep = (dir: Frame['dir']) => (f: { payload: string | Buffer }) => {
      try {
        const m = JSON.parse(String(f.payload)) as { msg_id: number; code?: number; msg?: string; data: unknown };
        frames.push({ socket, dir, msg_id: m.msg_id, code: m.code, msg: m.msg, data: m.data });
      } catch {
        /* not a push envelope */
      }
    };
    ws.on('framesent', keep('sent'));
    ws.on('framereceived', keep('received'));
    ws.on('close', () => closed.add(socket));
  });
  return { frames, opened: () => sockets, closed };
}

interface FleetEntry {
  sn_id: string;
  lat: number;
  lng: number;
}

/** Positions of one device in the 310 batches a socket received. */
const positionsIn = (frames: Frame[], socket: number, sn: string): string[] =>
  frames
    .filter((f) => f.socket === socket && f.dir === 'received' && f.msg_id === PushMsgId.FLEET_UPDATE)
    .flatMap((f) => ((f.data as { devices?: FleetEntry[] })?.devices ?? []).filter((d) => d.sn_id === sn))
    .map((d) => `${d.lat},${d.lng}`);

/** The position the map's device list shows for one device (its data attributes), as "lat,lng". */
const shownPosition = (page: Page, sn: string): Promise<string | null> =>
  page.evaluate((sn) => {
    const li = document.querySelector<HTMLElement>(`[data-testid=map-devices] li[data-sn="${sn}"]`);
    return li?.dataset.lat && li.dataset.lng ? `${li.dataset.lat},${li.dataset.lng}` : null;
  }, sn);

describe('data screen across a server restart', () => {
  it('verifies first on the new socket, subscribes again after the 2000 to 100, and the map moves again without a reload', { timeout: 300_000 }, async () => {
    const page = await newPage(browser, { lang: 'en' });
    const push = recordPush(page);
    await signIn(page, product.baseUrl, ADMIN.account, ADMIN.password);
    await page.goto(`${product.baseUrl}/nest/home`);
    await page.getByTestId('fleet-map').waitFor();

    // A flying single drone of the demo fleet, whose position the fleet batches keep changing.
    const sn = await until('a simulated drone in a fleet batch', () => {
      const seen = push.frames.find((f) => f.dir === 'received' && f.msg_id === PushMsgId.FLEET_UPDATE && ((f.data as { devices?: FleetEntry[] })?.devices ?? []).some((d) => d.sn_id.startsWith('SIM-ALONE-')));
      return ((seen?.data as { devices: FleetEntry[] } | undefined)?.devices ?? []).find((d) => d.sn_id.startsWith('SIM-ALONE-'))?.sn_id;
    });
    const first = push.opened();
    await until('the drone moving on the map before the restart', () => shownPosition(page, sn), (p) => p !== null && positionsIn(push.frames, first, sn).includes(p));
    await page.evaluate(() => {
      (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
    });

    await product.stopServer();
    await until('the page to see its push socket closed', () => push.closed.has(first));
    const before = await shownPosition(page, sn);
    await product.startServer();

    // The client reconnects with its backoff; the socket that gets fleet batches is the verified one.
    const socket = await until('fleet batches with the drone on a new push socket', () => {
      for (let s = first + 1; s <= push.opened(); s++) if (positionsIn(push.frames, s, sn).length > 0) return s;
      return 0;
    });
    // The map follows those batches: it shows a position that came on the new socket, not the last one
    // before the restart, and the page was never reloaded.
    const after = await until('the map to show a position from the new socket', () => shownPosition(page, sn), (p) => p !== null && p !== before && positionsIn(push.frames, socket, sn).includes(p));
    expect(after).not.toBe(before);
    await expect(page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).resolves.toBe(true);

    // On that socket: 100 first; 210 (and any 200) only after the 2000 to 100; nothing refused LOGIN_EXPIRED.
    const on = push.frames.filter((f) => f.socket === socket);
    const sent = on.filter((f) => f.dir === 'sent');
    expect(sent[0]?.msg_id).toBe(PushMsgId.USER_VERIFY);
    const verifiedAt = on.findIndex((f) => f.dir === 'received' && f.msg_id === PushMsgId.USER_VERIFY && f.code === ResultCode.OK);
    expect(verifiedAt).toBeGreaterThan(-1);
    const subscribedAt = on.findIndex((f) => f.dir === 'sent' && f.msg_id === PushMsgId.FLEET_SUBSCRIBE);
    expect(subscribedAt).toBeGreaterThan(verifiedAt);
    expect((on[subscribedAt]!.data as { on: boolean }).on).toBe(true);
    for (const f of on.slice(0, verifiedAt)) expect([PushMsgId.USER_VERIFY, PushMsgId.HEARTBEAT]).toContain(f.msg_id);
    expect(on.filter((f) => f.dir === 'received' && f.code === ResultCode.LOGIN_EXPIRED)).toEqual([]);
    // Every subscription on it came after verification (the screen asks when the socket opens, before that).
    on.forEach((f, i) => {
      if (f.dir === 'sent' && (f.msg_id === PushMsgId.FLEET_SUBSCRIBE || f.msg_id === PushMsgId.EQUIPMENT_VERIFY)) expect(i).toBeGreaterThan(verifiedAt);
    });
    await page.context().close();
  });
});

describe('data screen when the session ends', () => {
  it('tells the user and goes to sign-in when the server ends the push session (46010), without reconnecting', { timeout: 180_000 }, async () => {
    const page = await newPage(browser, { lang: 'en' });
    const push = recordPush(page);
    await signIn(page, product.baseUrl, ADMIN.account, ADMIN.password);
    await page.goto(`${product.baseUrl}/nest/home`);
    await page.getByTestId('fleet-map').waitFor();
    // The data screen's socket (signing in opened one on the page before it).
    const live = await until('the push socket of the data screen verified', () =>
      push.frames.find((f) => f.socket === push.opened() && f.dir === 'received' && f.msg_id === PushMsgId.USER_VERIFY && f.code === ResultCode.OK)?.socket,
    );

    // The password changed elsewhere (another session of the same administrator): every session of theirs is
    // revoked, and the server ends their push sockets at once, without waiting for a heartbeat.
    const api = await ApiClient.signIn(product.baseUrl, ADMIN.account, ADMIN.password);
    const keys = publicKeysSchema.parse(await (await fetch(product.baseUrl + PUBLIC_KEYS_PATH)).json());
    const stamp = Date.now();
    await api.data(
      'userPsw',
      {
        account: ADMIN.account,
        password: await sealPassword(ADMIN.password, keys.password, stamp),
        new_psw: await sealPassword('Changed#e2e-4821', keys.password, stamp),
      },
      stamp,
    );

    // The server ends the socket (46010); the page says so and signs out.
    const ended = await until('46010 on the push socket', () => push.frames.find((f) => f.socket === live && f.dir === 'received' && f.code === ResultCode.PUSH_NOT_ALIVE));
    await page.getByTestId('login-submit').waitFor();
    const box = page.locator('.ant-modal-confirm');
    await box.waitFor();
    // The server's msg (in the language the page gave at verification) when it gave one, else the
    // console's own English text.
    await expect(box.innerText()).resolves.toContain(ended.msg || 'Your session has ended; please sign in again');
    await expect(page.evaluate(() => localStorage.getItem('userInfo'))).resolves.toBeNull();
    // Barrier: the page reached sign-in after the socket closed; no new push socket was opened meanwhile,
    // and sign-in makes none (no token).
    await until('the push socket closed', () => push.closed.has(live));
    expect(push.opened()).toBe(live);
    await page.context().close();
  });
});

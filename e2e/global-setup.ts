import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ADMIN, cli, startProduct, type Product } from './support/product.js';
import { until } from './support/wait.js';

export const LIMITED = { account: '13800000001', password: 'Limited#2026', nick: 'Operator Li' };

/** What a test file needs of the product it drives (see support/shared.ts). */
export interface SharedProduct {
  baseUrl: string;
  dataDir: string;
  productEnv: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    products: SharedProduct[];
    admin: { account: string; password: string };
    limited: { account: string; password: string; nick: string };
  }
}

/**
 * One product per e2e worker (the project's maxWorkers, at most 2; vitest.config.ts runs one): files that
 * run at once each drive the product of their own worker, so that what one file changes (a no-fly zone
 * across a demo route, a timed task that launches a nest, an uploaded basemap, a registered dock) never
 * meets another file's test.
 */
export default async function setup(project: TestProject) {
  const count = Math.max(1, Math.min(2, Number(project.config.maxWorkers) || 1));
  // Flights are launched by the tests only (no demo launches), and simulated time runs 15x so a route
  // flight with its takeoff and landing flows fits in a test (flight.e2e.ts). Calm weather: the simulator's
  // showers and gusts would, at random, send the landing to the alternate point (a slow run saw it).
  // The product runs as on a fresh machine, where ffmpeg comes only from the npm package (`npm ci`): PATH
  // without the directories that hold a system ffmpeg, and no FFMPEG_PATH. The live video the tests watch
  // (fleet.e2e.ts) is then made by the packaged binary, and the start-up line says which one it is.
  // The RTMP ingest of DJI live video (dji.e2e.ts) on a free port, like the web server and the broker.
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !existsSync(join(dir, 'ffmpeg'))).join(delimiter);
  const started = await Promise.allSettled(
    Array.from({ length: count }, () =>
      startProduct({ DEMO_MISSIONS: 'off', SIM_TIME_SCALE: '15', SIM_WEATHER: 'calm', PATH: path, FFMPEG_PATH: '', RTMP_PORT: '0' }),
    ),
  );
  const products = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = () => Promise.all(products.map((p) => p.stop()));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  for (const product of products) {
    const video = await until('the start-up line naming the ffmpeg binary', () => /^Video: .*$/m.exec(product.log())?.[0]);
    if (!video.includes('(packaged, @ffmpeg-installer)')) {
      await stopAll();
      throw new Error(`the product should make video with the packaged ffmpeg on a machine without one; it printed: ${video}`);
    }
    // A limited operator: sees the data screen and equipment only, and may list devices.
    cli(product.env, [
      'user-add',
      '--account', LIMITED.account,
      '--password', LIMITED.password,
      '--nick', LIMITED.nick,
      '--funs', 'menu_home,menu_equipment,device_list',
      '--company', 'wk',
    ]);
  }
  project.provide('products', products.map(shared));
  project.provide('admin', ADMIN);
  project.provide('limited', LIMITED);
  return async () => {
    // The products' warnings and errors of the whole run: where a failed e2e test starts its diagnosis.
    products.forEach((product, i) => {
      const lines = product.log().trim().split('\n').filter(Boolean);
      const which = products.length > 1 ? ` ${i + 1} of ${products.length}` : '';
      if (lines.length > 0) console.log(`\nThe product's log${which} during the e2e run (last ${Math.min(60, lines.length)} of ${lines.length} lines):\n${lines.slice(-60).join('\n')}\n`);
    });
    await stopAll();
  };
}

function shared(product: Product): SharedProduct {
  return {
    baseUrl: product.baseUrl,
    dataDir: product.dataDir,
    productEnv: Object.fromEntries(Object.entries(product.env).filter(([, v]) => v !== undefined)) as Record<string, string>,
  };
}

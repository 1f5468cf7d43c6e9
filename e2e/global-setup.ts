import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ADMIN, cli, startProduct } from './support/product.js';
import { until } from './support/wait.js';

export const LIMITED = { account: '13800000001', password: 'Limited#2026', nick: 'Operator Li' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    admin: { account: string; password: string };
    limited: { account: string; password: string; nick: string };
    productEnv: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  // Flights are launched by the tests only (no demo launches), and simulated time runs 15x so a route
  // flight with its takeoff and landing flows fits in a test (flight.e2e.ts). Calm weather: the simulator's
  // showers and gusts would, at random, send the landing to the alternate point (a slow run saw it).
  // The product runs as on a fresh machine, where ffmpeg comes only from the npm package (`npm ci`): PATH
  // without the directories that hold a system ffmpeg, and no FFMPEG_PATH. The live video the tests watch
  // (fleet.e2e.ts) is then made by the packaged binary, and the start-up line says which one it is.
  // The RTMP ingest of DJI live video (dji.e2e.ts) on a free port, like the web server and the broker.
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !existsSync(join(dir, 'ffmpeg'))).join(delimiter);
  const product = await startProduct({ DEMO_MISSIONS: 'off', SIM_TIME_SCALE: '15', SIM_WEATHER: 'calm', PATH: path, FFMPEG_PATH: '', RTMP_PORT: '0' });
  const video = await until('the start-up line naming the ffmpeg binary', () => /^Video: .*$/m.exec(product.log())?.[0]);
  if (!video.includes('(packaged, @ffmpeg-installer)')) {
    await product.stop();
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
  project.provide('baseUrl', product.baseUrl);
  project.provide('dataDir', product.dataDir);
  project.provide('admin', ADMIN);
  project.provide('limited', LIMITED);
  project.provide('productEnv', Object.fromEntries(Object.entries(product.env).filter(([, v]) => v !== undefined)) as Record<string, string>);
  return async () => {
    // The product's warnings and errors of the whole run: where a failed e2e test starts its diagnosis.
    const lines = product.log().trim().split('\n').filter(Boolean);
    if (lines.length > 0) console.log(`\nThe product's log during the e2e run (last ${Math.min(60, lines.length)} of ${lines.length} lines):\n${lines.slice(-60).join('\n')}\n`);
    await product.stop();
  };
}

import type { TestProject } from 'vitest/node';
import { ADMIN, cli, startProduct } from './support/product.js';

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
  const product = await startProduct({ DEMO_MISSIONS: 'off', SIM_TIME_SCALE: '15', SIM_WEATHER: 'calm' });
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

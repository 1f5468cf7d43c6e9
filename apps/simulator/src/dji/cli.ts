/**
 * Runs one emulated DJI Dock 2 with an M3D against a broker, with the login printed by the server CLI
 * (docs/simulator.md, "DJI dock emulator"). The JSON line {mqtt_url, username, password} comes on stdin
 * (or --login FILE); the dock sn is the login's user name unless --sn says otherwise.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startDjiDock } from './dock.js';
import type { DjiDockOptions } from './dock.js';

export const DJI_USAGE = `Usage: dji-dock [options] < login.json
  --login FILE        the JSON line {"mqtt_url","username","password"} (default: stdin)
  --sn SN             dock serial number (default: the login's username)
  --drone-sn SN       the drone's serial number (required)
  --rc                be DJI Pilot 2 on an RC Plus with an M30 instead of a Dock 2 with an M3D
  --at LAT,LNG,H      dock position, H ellipsoid metres (default 22.5431,114.0579,40)
  --seed N            seed of weather and battery (default 1)
  --time-scale X      simulated seconds per real second, 1..100 (default 1)
  --help`;

/** Options of a dock from the arguments and the login line; throws with a message on bad input. */
export function djiCliOptions(argv: string[], readLogin: (file: string | undefined) => string): DjiDockOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      login: { type: 'string' },
      sn: { type: 'string' },
      'drone-sn': { type: 'string' },
      at: { type: 'string' },
      seed: { type: 'string' },
      'time-scale': { type: 'string' },
      rc: { type: 'boolean' },
    },
    strict: true,
  });
  let login: unknown;
  try {
    login = JSON.parse(readLogin(values.login));
  } catch {
    throw new Error('the login is not the JSON line {"mqtt_url","username","password"}');
  }
  const l = (login ?? {}) as Record<string, unknown>;
  if (typeof l.mqtt_url !== 'string' || typeof l.username !== 'string' || typeof l.password !== 'string') {
    throw new Error('the login needs mqtt_url, username and password');
  }
  const droneSn = values['drone-sn'];
  if (!droneSn) throw new Error('--drone-sn is required');
  const at = (values.at ?? '22.5431,114.0579,40').split(',').map(Number);
  const [lat, lng, height] = at;
  if (at.length !== 3 || lat === undefined || lng === undefined || height === undefined || at.some((n) => !Number.isFinite(n)) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw new Error('--at wants LAT,LNG,HEIGHT');
  }
  const seed = Number(values.seed ?? 1);
  const timeScale = Number(values['time-scale'] ?? 1);
  if (!Number.isInteger(seed)) throw new Error('--seed wants an integer');
  if (!(timeScale >= 1 && timeScale <= 100)) throw new Error('--time-scale wants 1..100');
  return {
    ...(values.rc ? { gateway: 'rc' as const } : {}),
    mqttUrl: l.mqtt_url,
    username: l.username,
    password: l.password,
    dockSn: values.sn ?? l.username,
    droneSn,
    position: { lat, lng, height },
    seed,
    timeScale,
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    console.log(DJI_USAGE);
    return;
  }
  let opts: DjiDockOptions;
  try {
    opts = djiCliOptions(argv, (file) => readFileSync(file ?? 0, 'utf8').trim().split('\n')[0] ?? '');
  } catch (e) {
    console.error(`${e instanceof Error ? e.message : String(e)}\n${DJI_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const dock = await startDjiDock({ ...opts, log: (line) => console.log(line) });
  console.log(`dji ${opts.gateway === 'rc' ? 'RC' : 'dock'} ${dock.dockSn} with drone ${dock.droneSn} online at ${opts.mqttUrl}`);
  dock.on('offline', () => console.log(`dji dock ${dock.dockSn} offline`));
  dock.on('connect', () => console.log(`dji dock ${dock.dockSn} online`));
  dock.on('command', (c) => console.log(`<- ${c.method || c.topic} tid=${c.tid}`));
  dock.on('reply', (r) => console.log(`-> ${r.method} result=${r.result}`));
  dock.on('missionEnded', (m) => console.log(`mission ${m.flight_id}: ${m.status} (result ${m.result}, ${m.media_count} photos)`));
  const stop = (): void => {
    void dock.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(self)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}

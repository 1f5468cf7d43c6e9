#!/usr/bin/env -S node --import tsx
/**
 * Runs a simulated fleet against any MQTT broker speaking the device link.
 *
 *   node --import tsx apps/simulator/src/cli.ts --nests 3 --drones 2 --broker mqtt://127.0.0.1:1883 \
 *     --rate 1 [--center 22.5431,114.0579] [--password-secret S | --fleet fleet.json] [--live-dir DIR] \
 *     [--fault SN:fault ...]
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_TELEMETRY_HZ, DeviceTypeKey, MAX_TELEMETRY_HZ, MIN_TELEMETRY_HZ, isSn } from '@nest/contracts';
import { FAULTS, demoFleet, devicePassword, isFault, startFleet } from './index.js';
import type { Fault, SimDeviceSpec } from './index.js';
import { ffmpegLine, resolveFfmpeg } from '@nest/ffmpeg';

export const DEFAULT_CENTER = { lat: 22.5431, lng: 114.0579 };
export const DEFAULT_BROKER = 'mqtt://127.0.0.1:1883';
/** Environment variable read when --password-secret is not given. */
export const SECRET_ENV = 'SIM_DEVICE_SECRET';

export const USAGE = `Usage: nest-simulator [options]
  --broker URL            MQTT broker (default ${DEFAULT_BROKER})
  --nests N               demo nests, cycling stable, stable_mini, mobile (default 3)
  --drones M              demo single-soldier drones (default 2)
  --center LAT,LNG        centre of the demo fleet (default ${DEFAULT_CENTER.lat},${DEFAULT_CENTER.lng})
  --prefix P              serial-number prefix of the demo fleet (default SIM)
  --rate HZ               telemetry rate, ${MIN_TELEMETRY_HZ}..${MAX_TELEMETRY_HZ} (default ${DEFAULT_TELEMETRY_HZ})
  --password-secret S     device password = HMAC-SHA256(S, sn) hex (or env ${SECRET_ENV})
  --fleet FILE            JSON array of devices {sn,password,kind,name,uavSn,home:{lat,lng,alt},alternate?:{lat,lng}} instead of the demo fleet
  --live-dir DIR          write HLS video there (<DIR>/<sn>/index.m3u8); video is off without it
  --live-url-base URL     URL prefix the server serves DIR at (default /live)
  --ffmpeg PATH           ffmpeg binary (default FFMPEG_PATH, else ffmpeg on PATH, else the packaged one)
  --fault SN:FAULT        inject a fault at start (repeatable): ${FAULTS.join(', ')}
  --seed N                seed of the models (default 1)
  --time-scale X          simulated seconds per real second, 1..100 (default 1)
  --media-url URL         server base URL for photo / video uploads (e.g. http://127.0.0.1:8080); none without it
  --help`;

/** Checks a --fleet file: an array of SimDeviceSpec. Answers the problems found (empty when fine). */
export function fleetFileProblems(json: unknown): string[] {
  if (!Array.isArray(json)) return ['the file must hold a JSON array of devices'];
  const problems: string[] = [];
  const num = (v: unknown, lo: number, hi: number): boolean => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
  json.forEach((d: unknown, i) => {
    const at = (what: string): void => void problems.push(`[${i}] ${what}`);
    if (typeof d !== 'object' || d === null) return at('not an object');
    const o = d as Record<string, unknown>;
    if (typeof o.sn !== 'string' || !isSn(o.sn)) at('sn: letters, digits, - and _ (1-64)');
    if (typeof o.password !== 'string' || o.password.length === 0) at('password: a non-empty string');
    if (!DeviceTypeKey.has(o.kind)) at('kind: stable, stable_mini, mobile or alone');
    if (typeof o.name !== 'string' || o.name.length === 0 || o.name.length > 64) at('name: 1-64 characters');
    if (typeof o.uavSn !== 'string' || !isSn(o.uavSn)) at('uavSn: letters, digits, - and _ (1-64)');
    const h = o.home as Record<string, unknown> | undefined;
    if (typeof h !== 'object' || h === null || !num(h.lat, -90, 90) || !num(h.lng, -180, 180) || !num(h.alt, -1000, 10000)) {
      at('home: {lat, lng, alt} numbers');
    }
    const a = o.alternate as Record<string, unknown> | undefined;
    if (a !== undefined && (typeof a !== 'object' || a === null || !num(a.lat, -90, 90) || !num(a.lng, -180, 180))) at('alternate: {lat, lng} numbers');
  });
  const sns = json.map((d: { sn?: unknown }) => d?.sn);
  const dup = sns.find((sn, i) => sns.indexOf(sn) !== i);
  if (dup !== undefined) problems.push(`duplicate sn ${String(dup)}`);
  return problems;
}

export interface CliConfig {
  broker: string;
  rateHz: number;
  devices: SimDeviceSpec[];
  liveDir?: string;
  liveUrlBase?: string;
  ffmpegPath?: string;
  faults: { sn: string; fault: Fault }[];
  seed: number;
  timeScale: number;
  mediaUrl?: string;
}

const count = (v: string | undefined, name: string, dflt: number): number => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 1000) throw new Error(`--${name} must be an integer 0..1000`);
  return n;
};

/** Parses the command line (throws with a readable message); `null` when --help was asked. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliConfig | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      broker: { type: 'string' },
      nests: { type: 'string' },
      drones: { type: 'string' },
      center: { type: 'string' },
      prefix: { type: 'string' },
      rate: { type: 'string' },
      'password-secret': { type: 'string' },
      fleet: { type: 'string' },
      'live-dir': { type: 'string' },
      'live-url-base': { type: 'string' },
      ffmpeg: { type: 'string' },
      fault: { type: 'string', multiple: true },
      seed: { type: 'string' },
      'time-scale': { type: 'string' },
      'media-url': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return null;
  const rateHz = values.rate === undefined ? DEFAULT_TELEMETRY_HZ : Number(values.rate);
  if (!Number.isFinite(rateHz) || rateHz < MIN_TELEMETRY_HZ || rateHz > MAX_TELEMETRY_HZ) {
    throw new Error(`--rate must be within ${MIN_TELEMETRY_HZ}..${MAX_TELEMETRY_HZ} Hz`);
  }
  let devices: SimDeviceSpec[];
  if (values.fleet) {
    if (values['password-secret']) throw new Error('give either --fleet or --password-secret, not both');
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(values.fleet, 'utf8'));
    } catch (err) {
      throw new Error(`cannot read --fleet ${values.fleet}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const problems = fleetFileProblems(json);
    if (problems.length > 0) throw new Error(`bad --fleet file: ${problems.slice(0, 10).join('; ')}`);
    devices = json as SimDeviceSpec[];
  } else {
    const secret = values['password-secret'] ?? env[SECRET_ENV];
    if (!secret) throw new Error(`give --password-secret (or ${SECRET_ENV}) or --fleet`);
    let center = DEFAULT_CENTER;
    if (values.center) {
      const [lat, lng] = values.center.split(',').map(Number);
      if (lat === undefined || lng === undefined || !(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) {
        throw new Error('--center must be LAT,LNG');
      }
      center = { lat, lng };
    }
    const prefix = values.prefix ?? 'SIM';
    if (!isSn(`${prefix}-X`)) throw new Error('--prefix: letters, digits, - and _ only');
    devices = demoFleet(center, { nests: count(values.nests, 'nests', 3), drones: count(values.drones, 'drones', 2) }, prefix).map(
      (d) => ({ ...d, password: devicePassword(secret, d.sn) }),
    );
  }
  if (devices.length === 0) throw new Error('no devices to simulate');
  const faults = (values.fault ?? []).map((f) => {
    const i = f.lastIndexOf(':');
    const sn = f.slice(0, i);
    const fault = f.slice(i + 1);
    if (i < 1 || !isFault(fault)) throw new Error(`--fault ${f}: expected SN:FAULT with FAULT one of ${FAULTS.join(', ')}`);
    if (!devices.some((d) => d.sn === sn)) throw new Error(`--fault ${f}: no device ${sn} in the fleet`);
    return { sn, fault };
  });
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
  const timeScale = values['time-scale'] === undefined ? 1 : Number(values['time-scale']);
  if (!Number.isFinite(timeScale) || timeScale < 1 || timeScale > 100) throw new Error('--time-scale must be within 1..100');
  const mediaUrl = values['media-url'];
  if (mediaUrl !== undefined && !/^https?:\/\/./.test(mediaUrl)) throw new Error('--media-url must be an http(s) URL');
  return {
    timeScale,
    mediaUrl,
    broker: values.broker ?? DEFAULT_BROKER,
    rateHz,
    devices,
    liveDir: values['live-dir'] ? resolve(values['live-dir']) : undefined,
    liveUrlBase: values['live-url-base'],
    ffmpegPath: values.ffmpeg,
    faults,
    seed,
  };
}

export async function main(argv: string[]): Promise<number> {
  let cfg: CliConfig | null;
  try {
    cfg = parseCli(argv);
  } catch (err) {
    console.error(`nest-simulator: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  if (!cfg) {
    console.log(USAGE);
    return 0;
  }
  const stamp = (): string => new Date().toISOString();
  const names = new Map(cfg.devices.map((d) => [d.sn, `${d.sn} (${d.kind}, ${d.name})`]));
  console.log(`${stamp()} starting ${cfg.devices.length} devices against ${cfg.broker} at ${cfg.rateHz} Hz`);
  if (cfg.liveDir || cfg.mediaUrl) console.log(`${stamp()} ${ffmpegLine(resolveFfmpeg(cfg.ffmpegPath ? { path: cfg.ffmpegPath } : {}))}`);
  const fleet = await startFleet({
    brokerUrl: cfg.broker,
    devices: cfg.devices,
    rateHz: cfg.rateHz,
    liveDir: cfg.liveDir,
    liveUrlBase: cfg.liveUrlBase,
    ffmpegPath: cfg.ffmpegPath,
    seed: cfg.seed,
    timeScale: cfg.timeScale,
    mediaUrl: cfg.mediaUrl,
    log: (line) => console.log(`${stamp()} ${line}`),
    onPresence: (sn, online) => console.log(`${stamp()} ${names.get(sn) ?? sn} ${online ? 'online' : 'offline'}`),
  });
  for (const { sn, fault } of cfg.faults) {
    fleet.inject(sn, fault);
    console.log(`${stamp()} ${sn}: fault ${fault} injected`);
  }
  console.log(`${stamp()} all devices connected; Ctrl-C to stop`);
  await new Promise<void>((resolveStop) => {
    let stopping = false;
    const onSignal = (sig: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      console.log(`${stamp()} ${sig}: stopping`);
      fleet.stop().then(resolveStop, (err: unknown) => {
        console.error(err);
        resolveStop();
      });
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  return 0;
}

const isEntry = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`nest-simulator: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}

import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLinkMessage, topicOf } from '@nest/contracts';
import { fleetFileProblems, parseCli } from './cli.js';
import { demoFleet, devicePassword } from './index.js';
import { startBroker } from './test/broker.js';
import type { TestBroker } from './test/broker.js';
import { until } from './test/wait.js';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
let broker: TestBroker | null = null;
afterEach(async () => {
  await broker?.close();
  broker = null;
});

describe('cli arguments', () => {
  it('derives passwords from the secret with HMAC-SHA256(secret, sn)', () => {
    const cfg = parseCli(['--nests', '4', '--drones', '2', '--password-secret', 's3', '--center', '30.5,104.1', '--rate', '2', '--fault', 'SIM-MINI-01:hatch_stuck'], {})!;
    expect(cfg.devices.map((d) => d.sn)).toEqual(['SIM-STABLE-01', 'SIM-MINI-01', 'SIM-MOBILE-01', 'SIM-STABLE-02', 'SIM-ALONE-01', 'SIM-ALONE-02']);
    expect(cfg.devices[0]!.password).toBe(devicePassword('s3', 'SIM-STABLE-01'));
    expect(devicePassword('s3', 'SIM-STABLE-01')).toMatch(/^[0-9a-f]{64}$/);
    expect(cfg.rateHz).toBe(2);
    expect(cfg.faults).toEqual([{ sn: 'SIM-MINI-01', fault: 'hatch_stuck' }]);
  });

  it('rejects bad input with readable messages', () => {
    expect(() => parseCli([], {})).toThrow(/password-secret/);
    expect(parseCli([], { SIM_DEVICE_SECRET: 'x' })!.devices).toHaveLength(5);
    expect(() => parseCli(['--password-secret', 'x', '--rate', '20'], {})).toThrow(/--rate/);
    expect(() => parseCli(['--password-secret', 'x', '--fault', 'SIM-STABLE-01:gremlins'], {})).toThrow(/--fault/);
    expect(() => parseCli(['--password-secret', 'x', '--fault', 'NOPE:offline'], {})).toThrow(/no device/);
    expect(() => parseCli(['--password-secret', 'x', '--center', 'north'], {})).toThrow(/--center/);
    expect(() => parseCli(['--bogus'], {})).toThrow();
    expect(parseCli(['--help'], {})).toBeNull();
  });

  it('reads a fleet file and checks it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    try {
      const file = join(dir, 'fleet.json');
      const devices = demoFleet({ lat: 1, lng: 2 }, { nests: 1, drones: 1 }).map((d) => ({ ...d, password: 'pw' }));
      writeFileSync(file, JSON.stringify(devices));
      expect(parseCli(['--fleet', file], {})!.devices).toEqual(devices);
      expect(fleetFileProblems([{ ...devices[0], kind: 'blimp' }, devices[0], devices[0]]).join('\n')).toMatch(/kind[\s\S]*duplicate/);
      expect(fleetFileProblems({})).toHaveLength(1);
      expect(() => parseCli(['--fleet', file, '--password-secret', 'x'], {})).toThrow(/not both/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('cli process', () => {
  it('runs a fleet, prints a line per device, stops cleanly on SIGINT', async () => {
    const secret = 'cli-secret';
    const specs = demoFleet({ lat: 22.5431, lng: 114.0579 }, { nests: 1, drones: 1 });
    broker = await startBroker({ passwords: new Map(specs.map((d) => [d.sn, devicePassword(secret, d.sn)])) });
    const obs = await broker.observer();
    const presence = new Map<string, boolean>();
    obs.on('message', (topic, payload) => {
      const p = parseLinkMessage(payload);
      if (p.ok) presence.set(topic, (p.message.data as { online: boolean }).online);
    });
    await obs.subscribeAsync('nest/v1/+/presence', { qos: 1 });
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--nests', '1', '--drones', '1', '--broker', broker.url, '--rate', '2', '--password-secret', secret], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exitCode = code))));
    await until('all devices connected', () => out.includes('all devices connected') || exitCode !== undefined);
    expect(exitCode, out).toBeUndefined();
    expect(out).toContain('SIM-STABLE-01 (stable, 机场 A01) online');
    expect(out).toContain('SIM-ALONE-01 (alone, 单兵 D01) online');
    // The retained presence reaches the observer through the broker a moment after the CLI's own line.
    await until('SIM-ALONE-01 online on the broker', () => presence.get(topicOf('SIM-ALONE-01', 'presence')) === true);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('SIGINT: stopping');
    expect(out).toMatch(/SIM-STABLE-01 \(stable, 机场 A01\) offline/);
    // A clean stop says offline itself (retained).
    await until('SIM-STABLE-01 offline on the broker', () => presence.get(topicOf('SIM-STABLE-01', 'presence')) === false);
  });
});

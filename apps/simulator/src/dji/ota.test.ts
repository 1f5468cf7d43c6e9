import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtaBench, OtaCode, type OtaHost } from './ota.js';
import { DockMode } from './protocol.js';

const PACKAGE = Buffer.from('firmware image '.repeat(500));
const MD5 = createHash('md5').update(PACKAGE).digest('hex');
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/fw.bin') res.end(PACKAGE);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** A dock the bench upgrades; simulated time passes at once; `finished` resolves on the final ota_progress. */
function host(busy = false) {
  const s = { mode: DockMode.idle as number, firmware: { dock: '10.01.1612', drone: '10.01.1609' } };
  const events: { bid: string; result: number; status: string; percent: number; step: number }[] = [];
  let finish: () => void = () => {};
  const finished = new Promise<void>((r) => (finish = r));
  const h: OtaHost = {
    sns: () => ({ dock: 'DOCK1', drone: 'DRONE1' }),
    mode: () => s.mode,
    setMode: (m) => (s.mode = m),
    busy: () => busy,
    setFirmware: (device, version) => (s.firmware[device] = version),
    progress: (bid, result, status, percent, step) => {
      events.push({ bid, result, status, percent, step });
      if (status !== 'in_progress') finish();
    },
    wait: () => Promise.resolve(),
    log: () => {},
  };
  return { s, events, finished, bench: new OtaBench(h) };
}

const create = (over: Record<string, unknown> = {}) => ({
  devices: [{ sn: 'DOCK1', product_version: '10.02.0001', file_url: `${url}/fw.bin`, md5: MD5, file_size: PACKAGE.length, file_name: 'fw.bin', firmware_upgrade_type: 2, ...over }],
});

describe('firmware updates of the emulated dock', () => {
  it('downloads, verifies, installs with progress steps and reports the new version, mode_code 3 meanwhile', async () => {
    const { bench, s, events, finished } = host();
    expect(bench.execute('ota_create', 'op-1', create())).toEqual({ result: 0, output: { status: 'in_progress' } });
    expect(s.mode).toBe(DockMode.upgrading);
    expect(bench.execute('ota_create', 'op-2', create())).toEqual({ result: OtaCode.updating });
    await finished;
    expect(events.map((e) => [e.status, e.step, e.percent])).toEqual([
      ['in_progress', 1, 0],
      ['in_progress', 2, 50],
      ['in_progress', 2, 75],
      ['ok', 2, 100],
    ]);
    expect(events.every((e) => e.bid === 'op-1' && e.result === 0)).toBe(true);
    expect(s.firmware.dock).toBe('10.02.0001');
    await Promise.resolve();
    expect(s.mode).toBe(DockMode.idle);
  });

  it('refuses a package whose MD5 or size differs with 312003, keeping its version', async () => {
    for (const over of [{ md5: '0'.repeat(32) }, { file_size: PACKAGE.length + 1 }, { file_url: `${url}/missing.bin` }]) {
      const { bench, s, events, finished } = host();
      expect(bench.execute('ota_create', 'op-1', create(over))?.result).toBe(0);
      await finished;
      expect(events.at(-1)).toMatchObject({ status: 'failed', result: OtaCode.validationFailed });
      expect(s.firmware.dock).toBe('10.01.1612');
    }
  });

  it('refuses an upgrade in flight, missing parameters and another device; ignores other methods', () => {
    expect(host(true).bench.execute('ota_create', 'b', create())).toEqual({ result: OtaCode.inFlight });
    expect(host().bench.execute('ota_create', 'b', create({ md5: 'nope' }))).toEqual({ result: OtaCode.wrongParameter });
    expect(host().bench.execute('ota_create', 'b', create({ sn: 'SOMEONE-ELSE' }))).toEqual({ result: OtaCode.wrongParameter });
    expect(host().bench.execute('ota_create', 'b', { devices: [] })).toEqual({ result: OtaCode.wrongParameter });
    expect(host().bench.execute('cover_open', 'b', {})).toBeUndefined();
  });
});

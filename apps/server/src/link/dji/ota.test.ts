import { DjiMethod, DjiResult } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { otaProgressOf, runOta } from './ota.js';
import type { ServiceCall } from './debug.js';

const MD5 = '0123456789abcdef0123456789abcdef';
const upgrade = { op_id: 'op-1', url: '/api/device/rom/file/r1', size: 1234, sha256: 'a'.repeat(64), version_code: 2, version_name: '10.02.0001', link: '/api/device/rom/download/r1?e=1&s=x', md5: MD5, file_name: 'fw.bin' };

describe('ota_create of a DJI dock', () => {
  it('sends one device with the signed file URL, MD5, size, name and a normal upgrade type, bid = the operation id', async () => {
    const calls: { method: string; data: unknown; bid?: string }[] = [];
    const call: ServiceCall = (method, data, bid) => {
      calls.push({ method, data, bid });
      return Promise.resolve({ result: 0, attempts: 1, output: { status: 'in_progress' } });
    };
    expect(await runOta(upgrade, { sn: 'DOCK1', httpBase: 'http://10.0.0.2:8080/' }, call)).toMatchObject({ status: 'ok' });
    expect(calls).toEqual([
      {
        method: DjiMethod.OTA_CREATE,
        bid: 'op-1',
        data: { devices: [{ sn: 'DOCK1', product_version: '10.02.0001', file_url: 'http://10.0.0.2:8080/api/device/rom/download/r1?e=1&s=x', md5: MD5, file_size: 1234, file_name: 'fw.bin', firmware_upgrade_type: 2 }] },
      },
    ]);
  });

  it('answers the dock refusal with its code, no answer as a timeout, and sends nothing without a link or MD5', async () => {
    const refusing: ServiceCall = () => Promise.resolve({ result: DjiResult.OTA_IN_FLIGHT, attempts: 1 });
    expect(await runOta(upgrade, { sn: 'D', httpBase: 'http://h' }, refusing)).toMatchObject({ status: 'failed', code: 312015 });
    expect(await runOta(upgrade, { sn: 'D', httpBase: 'http://h' }, () => Promise.resolve(null))).toEqual({ status: 'timeout' });
    let sent = 0;
    const counting: ServiceCall = () => {
      sent++;
      return Promise.resolve({ result: 0, attempts: 1 });
    };
    const { md5: _md5, ...noMd5 } = upgrade;
    expect(await runOta(noMd5, { sn: 'D', httpBase: 'http://h' }, counting)).toMatchObject({ status: 'failed', code: DjiResult.BAD_PARAMETER });
    expect(await runOta(upgrade, { sn: 'D', httpBase: null }, counting)).toMatchObject({ status: 'failed' });
    expect(sent).toBe(0);
  });
});

describe('ota_progress as the upgrade operation progress', () => {
  const event = (status: string, percent: number, step: number, result = 0) => ({ result, output: { status, progress: { percent, current_step: step }, ext: { rate: 0 } } });

  it('reads download and install steps, the end ok, a failure with its DJI code', () => {
    expect(otaProgressOf(DjiMethod.OTA_PROGRESS, 'op-1', event('in_progress', 20, 1))).toEqual({ op_id: 'op-1', kind: 'upgrade', state: 'running', progress: 20, stage: 'download' });
    expect(otaProgressOf(DjiMethod.OTA_PROGRESS, 'op-1', event('in_progress', 80, 2))).toMatchObject({ state: 'running', stage: 'install' });
    expect(otaProgressOf(DjiMethod.OTA_PROGRESS, 'op-1', event('ok', 100, 2))).toEqual({ op_id: 'op-1', kind: 'upgrade', state: 'ok', progress: 100, stage: 'done' });
    expect(otaProgressOf(DjiMethod.OTA_PROGRESS, 'op-1', event('failed', 50, 1, 312003))).toMatchObject({ state: 'failed', failure: 312003, progress: 50 });
  });

  it('is null for other events or without a bid', () => {
    expect(otaProgressOf(DjiMethod.COVER_OPEN, 'op-1', event('ok', 100, 2))).toBeNull();
    expect(otaProgressOf(DjiMethod.OTA_PROGRESS, '', event('ok', 100, 2))).toBeNull();
  });
});

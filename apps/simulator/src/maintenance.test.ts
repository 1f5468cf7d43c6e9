import { createHash } from 'node:crypto';
import { MaintFail, MaintenanceMethod, maintProgressEvent, type MaintProgressEvent } from '@nest/contracts';
import { buildWkimg } from '@nest/formats';
import { describe, expect, it } from 'vitest';
import { SimMaintenance, isMaintFault, unreachableCaster, verifyPackage, type MaintenanceHost } from './maintenance.js';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function rig(opts: { busy?: boolean; rtkLost?: boolean; kind?: MaintenanceHost['kind'] } = {}) {
  const events: MaintProgressEvent[] = [];
  const rtk: [number, number][] = [];
  let stateChanges = 0;
  const host: MaintenanceHost = {
    sn: 'S1',
    password: 'pw',
    kind: opts.kind ?? 'stable',
    httpBase: null,
    timeScale: 1000,
    event: (method, data) => {
      expect(method).toBe(MaintenanceMethod.PROGRESS);
      // Every event the simulator sends matches the contracts.
      events.push(maintProgressEvent.parse(data));
    },
    stateChanged: () => void stateChanges++,
    busy: () => opts.busy ?? false,
    rtkLost: () => opts.rtkLost ?? false,
    setRtk: (status, ntrip) => void rtk.push([status, ntrip]),
    reboot: () => {},
    logLines: () => ['line'],
    log: () => {},
  };
  const m = new SimMaintenance(host, 'sim-1.0.0');
  const ended = (opId: string) =>
    new Promise<MaintProgressEvent>((resolve) => {
      const t = setInterval(() => {
        const e = events.find((x) => x.op_id === opId && x.state !== 'running');
        if (e) {
          clearInterval(t);
          resolve(e);
        }
      }, 5);
    });
  return { m, events, rtk, ended, changes: () => stateChanges };
}

describe('simulated maintenance', () => {
  it('calibrates every item normal, abnormal only with a fault injected', async () => {
    const r = rig();
    expect(r.m.execute(MaintenanceMethod.CALIBRATE, { op_id: 'c1', items: ['gyroscope', 'compass', 'acceleration'] })).toMatchObject({ result: 0 });
    expect(await r.ended('c1')).toMatchObject({ state: 'ok', results: { gyroscope: 0, compass: 0, acceleration: 0 } });
    r.m.faults.add('compass_fault');
    r.m.execute(MaintenanceMethod.CALIBRATE, { op_id: 'c2', items: ['compass', 'gyroscope'] });
    expect(await r.ended('c2')).toMatchObject({ state: 'failed', failure: MaintFail.CALIBRATION, results: { gyroscope: 0, compass: 1 } });
    // Items run in the fixed order, each announced as a stage.
    expect(r.events.filter((e) => e.op_id === 'c2' && e.state === 'running').map((e) => e.stage)).toEqual(['gyroscope', 'compass']);
  });

  it('refuses a second operation of a kind, ground-only ones in the air, and bad data', () => {
    const r = rig();
    expect(r.m.execute(MaintenanceMethod.CALIBRATE, { op_id: 'a', items: ['compass'] })).toMatchObject({ result: 0 });
    expect(r.m.execute(MaintenanceMethod.CALIBRATE, { op_id: 'b', items: ['compass'] })).toMatchObject({ result: MaintFail.BUSY, output: { failure: MaintFail.BUSY } });
    expect(rig({ busy: true }).m.execute(MaintenanceMethod.UPGRADE, { op_id: 'u', url: '/x', size: 1, sha256: 'a'.repeat(64), version_code: 1, version_name: 'v' })).toMatchObject({ result: MaintFail.FLYING });
    expect(r.m.execute(MaintenanceMethod.AZIMUTH, { azimuth: 500 })).toMatchObject({ result: 3 });
    expect(r.m.execute('maint.nothing', {})).toBeNull();
    expect(rig({ kind: 'alone' }).m.execute(MaintenanceMethod.LOG, { op_id: 'l', url: '/x' })).toMatchObject({ result: 1 });
  });

  it('stores beacon and azimuth at once and shows them in its snapshot', () => {
    const r = rig();
    expect(r.m.execute(MaintenanceMethod.BEACON, { beacon: { lat: 1, lng: 2, height: 3 } })).toMatchObject({ result: 0 });
    expect(r.m.execute(MaintenanceMethod.AZIMUTH, { azimuth: 90 })).toMatchObject({ result: 0 });
    expect(r.m.snapshot()).toMatchObject({ firmware: 'sim-1.0.0', azimuth: 90, beacon: { lat: 1, lng: 2, height: 3 }, running: [] });
    expect(r.changes()).toBe(2);
  });

  it('walks the Ntrip states to corrections and RTK fixed, or to network unavailable', async () => {
    const ok = rig();
    ok.m.execute(MaintenanceMethod.RTK, { op_id: 'r1', url: 'caster.example.com', port: 2101, mount_point: 'M', user: 'u', password: 'p' });
    expect(await ok.ended('r1')).toMatchObject({ state: 'ok', ntrip_state: 7, rtk_status: 4 });
    expect(ok.rtk.map(([, n]) => n)).toEqual([0, 1, 2, 3, 6, 7]);
    expect(JSON.stringify(ok.m.snapshot())).not.toContain('"p"');
    const bad = rig();
    bad.m.execute(MaintenanceMethod.RTK, { op_id: 'r2', url: 'invalid', port: 2101 });
    expect(await bad.ended('r2')).toMatchObject({ state: 'failed', failure: MaintFail.CASTER, ntrip_state: 11, rtk_status: 0 });
    const lost = rig({ rtkLost: true });
    lost.m.execute(MaintenanceMethod.RTK, { op_id: 'r3', url: 'caster.example.com', port: 2101 });
    expect(await lost.ended('r3')).toMatchObject({ state: 'failed', ntrip_state: 11 });
  });

  it('fails downloads and uploads without a server address', async () => {
    const r = rig();
    r.m.execute(MaintenanceMethod.UPGRADE, { op_id: 'u1', url: '/f', size: 5, sha256: 'a'.repeat(64), version_code: 1, version_name: 'v' });
    expect(await r.ended('u1')).toMatchObject({ state: 'failed', failure: MaintFail.DOWNLOAD });
    r.m.execute(MaintenanceMethod.LOG, { op_id: 'l1', url: '/l' });
    expect(await r.ended('l1')).toMatchObject({ state: 'failed', failure: MaintFail.UPLOAD });
    expect(r.m.firmware).toBe('sim-1.0.0');
  });

  it('verifies a package: size, digest, .wkimg structure, payload digest, type, model and version', () => {
    const pkg = (h: Partial<{ type: number; model: string; version_name: string }> = {}) =>
      Buffer.from(buildWkimg({ type: h.type ?? 17, version_code: 3, version_name: h.version_name ?? '3.0', model: h.model ?? '' }, Buffer.from('payload'), sha));
    const cmd = (b: Buffer) => ({ op_id: 'o', url: '/f', size: b.length, sha256: sha(b), version_code: 3, version_name: '3.0' });
    const good = pkg();
    expect(verifyPackage(good, cmd(good), 'stable')).toBeNull();
    expect(verifyPackage(good, { ...cmd(good), size: 1 }, 'stable')).toMatchObject({ failure: MaintFail.VERIFY });
    expect(verifyPackage(good, { ...cmd(good), sha256: 'b'.repeat(64) }, 'stable')).toMatchObject({ failure: MaintFail.VERIFY });
    const junk = Buffer.from('not a package');
    expect(verifyPackage(junk, cmd(junk), 'stable')).toMatchObject({ failure: MaintFail.VERIFY, message: expect.stringContaining('wkimg') });
    const tampered = Buffer.from(good);
    const last = tampered.length - 1;
    tampered.writeUInt8(tampered.readUInt8(last) ^ 1, last);
    expect(verifyPackage(tampered, cmd(tampered), 'stable')).toMatchObject({ message: 'payload sha256 mismatch' });
    const other = pkg({ type: 18 });
    expect(verifyPackage(other, cmd(other), 'stable')).toMatchObject({ failure: MaintFail.WRONG_DEVICE });
    const mini = pkg({ model: 'stable_mini' });
    expect(verifyPackage(mini, cmd(mini), 'stable')).toMatchObject({ failure: MaintFail.WRONG_DEVICE });
    expect(verifyPackage(mini, cmd(mini), 'stable_mini')).toBeNull();
    const v4 = pkg({ version_name: '4.0' });
    expect(verifyPackage(v4, cmd(v4), 'stable')).toMatchObject({ failure: MaintFail.VERIFY });
  });

  it('knows unreachable-looking caster hosts and its own faults', () => {
    expect(unreachableCaster('invalid')).toBe(true);
    expect(unreachableCaster('ntrip://rtk.invalid:2101/M')).toBe(true);
    expect(unreachableCaster('unreachable.example.com')).toBe(true);
    expect(unreachableCaster('rtk.example.com')).toBe(false);
    expect(isMaintFault('imu_fault')).toBe(true);
    expect(isMaintFault('hatch_stuck')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { calls } from './calls.js';
import { DEVICE_TEXT } from './flight.js';
import {
  DeviceOpState,
  MAINTENANCE_KINDS,
  MaintFail,
  MaintenanceFailure,
  MaintenanceKind,
  OP_IDLE_TIMEOUT_MS,
  DebugAction,
  DEBUG_ACTIONS,
  calibrateCommandData,
  debugCommandData,
  deviceOpPush,
  logCommandData,
  maintProgressEvent,
  opReasonText,
  rtkCommandData,
  upgradeCommandData,
} from './maintenance.js';
import { PushMsgId } from './push.js';

const SHA = 'a'.repeat(64);

describe('maintenance contracts', () => {
  it('names the debug actions in both languages and answers a DJI refusal with its DJI text', () => {
    expect(DebugAction.values()).toEqual([...DEBUG_ACTIONS]);
    for (const e of DebugAction.entries) expect(e.label.zh && e.label.en).toBeTruthy();
    for (const action of DEBUG_ACTIONS) expect(debugCommandData.safeParse({ op_id: 'o', action }).success).toBe(true);
    expect(debugCommandData.safeParse({ op_id: 'o', action: 'putter_open' }).success).toBe(false);
    const op = { kind: 'debug', state: 'failed', reason: 514134 };
    expect(opReasonText(op, 'en')).toMatch(/rain/i);
    expect(opReasonText(op, 'zh')).toContain('雨');
  });

  it('names every kind, state and failure in both languages', () => {
    expect(MaintenanceKind.values()).toEqual([...MAINTENANCE_KINDS]);
    for (const k of MAINTENANCE_KINDS) expect(OP_IDLE_TIMEOUT_MS[k]).toBeGreaterThan(0);
    for (const e of [...MaintenanceKind.entries, ...DeviceOpState.entries, ...MaintenanceFailure.entries]) {
      expect(e.label.zh).not.toBe('');
      expect(e.label.en).not.toBe('');
    }
    expect(Object.values(MaintFail).every((code) => MaintenanceFailure.has(code))).toBe(true);
    expect(PushMsgId.DEVICE_OP).toBe(390);
  });

  it('upgrade commands carry a server path, the size and a lower-case sha256', () => {
    const ok = { op_id: 'o1', url: '/api/device/rom/file/x', size: 10, sha256: SHA, version_code: 2, version_name: '2.0' };
    expect(upgradeCommandData.safeParse(ok).success).toBe(true);
    expect(upgradeCommandData.safeParse({ ...ok, url: 'http://elsewhere/x' }).success).toBe(false);
    expect(upgradeCommandData.safeParse({ ...ok, sha256: SHA.toUpperCase() }).success).toBe(false);
    expect(upgradeCommandData.safeParse({ ...ok, size: 0 }).success).toBe(false);
    expect(logCommandData.safeParse({ op_id: 'o', url: '/api/device/log/upload/o' }).success).toBe(true);
  });

  it('calibration takes known items only; RTK needs url and port', () => {
    expect(calibrateCommandData.safeParse({ op_id: 'o', items: ['compass'] }).success).toBe(true);
    expect(calibrateCommandData.safeParse({ op_id: 'o', items: [] }).success).toBe(false);
    expect(calibrateCommandData.safeParse({ op_id: 'o', items: ['magnet'] }).success).toBe(false);
    expect(rtkCommandData.parse({ op_id: 'o', url: 'caster', port: 2101 })).toMatchObject({ mount_point: '', user: '', password: '' });
    expect(rtkCommandData.safeParse({ op_id: 'o', url: '', port: 2101 }).success).toBe(false);
    expect(rtkCommandData.safeParse({ op_id: 'o', url: 'caster', port: 70000 }).success).toBe(false);
  });

  it('progress events: known kind, a running / final state, progress 0-100, outcome facts in range', () => {
    const e = { op_id: 'o', kind: 'rtk', state: 'running', progress: 50, ntrip_state: 7, rtk_status: 4 };
    expect(maintProgressEvent.safeParse(e).success).toBe(true);
    expect(maintProgressEvent.safeParse({ ...e, state: 'timeout' }).success).toBe(false);
    expect(maintProgressEvent.safeParse({ ...e, progress: 101 }).success).toBe(false);
    expect(maintProgressEvent.safeParse({ ...e, ntrip_state: 12 }).success).toBe(false);
    expect(maintProgressEvent.safeParse({ ...e, kind: 'calibrate', results: { compass: 2 } }).success).toBe(false);
    expect(maintProgressEvent.safeParse({ ...e, kind: 'calibrate', results: { compass: 1 } }).success).toBe(true);
  });

  it('the call fields mirror the SPEC rules (url and port required, azimuth -1 or 0-360)', () => {
    const rtk = calls.deviceRtk.fields;
    expect(rtk.safeParse({ sn_id: 'A', url: 'c', port: '2101' }).success).toBe(true);
    expect(rtk.safeParse({ sn_id: 'A', url: 'c' }).success).toBe(false);
    expect(rtk.safeParse({ sn_id: 'A', port: '2101' }).success).toBe(false);
    const az = calls.deviceAzimuth.fields;
    expect(az.parse({ sn_id: 'A', azimuth: '-1' }).azimuth).toBe(-1);
    expect(az.safeParse({ sn_id: 'A', azimuth: '-0.5' }).success).toBe(false);
    expect(az.safeParse({ sn_id: 'A', azimuth: '361' }).success).toBe(false);
    expect(calls.deviceCalibrate.fields.parse({ sn_id: 'A' }).items).toBeUndefined();
    expect(calls.deviceCalibrate.fields.parse({ sn_id: 'A', items: '["gyroscope"]' }).items).toEqual(['gyroscope']);
    expect(calls.deviceBeacon.fields.safeParse({ sn_id: 'A', beacon: '{"lat":1,"lng":2}' }).success).toBe(false);
  });

  it('reason texts: the SPEC timeouts, device failures, dropped devices', () => {
    expect(opReasonText({ kind: 'azimuth', state: 'timeout', reason: 0 }, 'en')).toBe(DEVICE_TEXT.azimuthTimeout.en);
    expect(opReasonText({ kind: 'beacon', state: 'timeout', reason: 0 }, 'zh')).toBe(DEVICE_TEXT.beaconTimeout.zh);
    expect(opReasonText({ kind: 'upgrade', state: 'failed', reason: MaintFail.VERIFY }, 'en')).toBe(MaintenanceFailure.label(22, 'en'));
    expect(opReasonText({ kind: 'log', state: 'offline', reason: 1 }, 'en')).toMatch(/offline/);
    expect(opReasonText({ kind: 'log', state: 'ok', reason: 0 }, 'en')).toBe('');
    expect(opReasonText({ kind: 'rtk', state: 'failed', reason: 99 }, 'en')).not.toBe('');
  });

  it('push 390 carries one operation', () => {
    const op = {
      id: 'o',
      sn_id: 'A',
      kind: 'log',
      state: 'ok',
      progress: 100,
      params: {},
      outcome: { stage: 'done' },
      reason: 0,
      user_name: 'u',
      create_time: 1,
      modified_time: 2,
      finish_time: 2,
      file: { name: 'a.log', size: 3, url: '/api/device/log/file/o' },
    };
    expect(deviceOpPush.safeParse({ sn_id: 'A', op }).success).toBe(true);
    expect(deviceOpPush.safeParse({ sn_id: 'A', op: { ...op, state: 'done' } }).success).toBe(false);
  });
});

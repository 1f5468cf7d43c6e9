/** Remote debug of a DJI dock through the DJI adapter, against the simulator's emulated Dock 2. */
import { MaintenanceMethod, ResultCode, callFunId } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DJI_HOME as HOME, startDjiTestServer, startEmulatedDock } from './testing.js';
import { userClient, type TestServer } from '../../../test/helpers.js';
import { live, registerDevice, until } from '../../../test/live.js';
import { loadSimulator } from '../../../test/simulator.js';

let server: TestServer;

beforeAll(async () => {
  server = await startDjiTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('DJI remote debug with the emulated dock', () => {
  it('opens the cover inside debug mode, the dock leaving debug mode after it', async () => {
    const gw = 'DJI-DBG1';
    const l = live(server);
    const emulator = await startEmulatedDock(server, gw, { seed: 3 });
    try {
      const methods: string[] = [];
      emulator.on('reply', (r: { method: string; result: number }) => methods.push(`${r.method}:${r.result}`));
      const r = await l.link.command(gw, MaintenanceMethod.DEBUG, { op_id: 'op-1', action: 'cover_open' });
      expect(r).toMatchObject({ status: 'ok', reply: { result: 0 } });
      expect(methods).toEqual(['debug_mode_open:0', 'cover_open:0', 'debug_mode_close:0']);
      await until(() => emulator.dockState().cover_state === 1, 'the cover open');
      expect(emulator.dockState().mode_code).toBe(0);

      const bad = await l.link.command(gw, MaintenanceMethod.DEBUG, { op_id: 'op-2', action: 'fly_away' });
      expect(bad.status).toBe('failed');

      // Through the console call: the operation is recorded and ends ok; a refusal carries the DJI text.
      const op = await userClient(server, { nick: 'Debugger', funList: ['/device/debug', '/device/ops'].map(callFunId) });
      const done = await op.call('deviceDebug', { sn_id: gw, action: 'cover_close' }, { lang: 'en' });
      expect(done.body).toMatchObject({ code: ResultCode.OK, data: { kind: 'debug', params: { action: 'cover_close' } } });
      // The dock's progress events of the action end the operation ok at 100 %, once the cover closed.
      const opOf = async () => ((await op.call('deviceOps', { sn_id: gw, kind: 'debug' })).body as { data: { list: { state: string; progress: number }[] } }).data.list[0];
      await until(async () => (await opOf())?.state === 'ok', 'the debug operation ended by its progress events');
      expect(await opOf()).toMatchObject({ state: 'ok', progress: 100 });
      expect(emulator.dockState().cover_state).toBe(0);
      const listed = await op.call('deviceOps', { sn_id: gw, kind: 'debug' });
      expect(listed.body).toMatchObject({ code: ResultCode.OK, data: { total: 1 } });
    } finally {
      await emulator.stop();
    }
  });

  it('a native nest answers the debug method unsupported and stays online', async () => {
    const sn = 'NEST-DBG1';
    await registerDevice(server, { sn_id: sn, type: 'stable' });
    const l = live(server);
    const sim = await loadSimulator();
    const fleet = await sim.startFleet({
      brokerUrl: l.brokerUrl,
      devices: [{ sn, password: l.devicePassword(sn), kind: 'stable' as const, name: sn, uavSn: `${sn}-UAV`, home: { lat: HOME.lat, lng: HOME.lng, alt: 30 }, calm: true }],
      rateHz: 2,
      ffmpegPath: null,
      validate: true,
      seed: 1,
      timeScale: 20,
    });
    try {
      await until(() => l.link.isOnline(sn), 'the nest online');
      const r = await l.link.command(sn, MaintenanceMethod.DEBUG, { op_id: 'op-n', action: 'cover_open' });
      expect(r).toMatchObject({ status: 'failed', reply: { result: 1 } });
      expect(l.link.isOnline(sn)).toBe(true);
      const op = await userClient(server, { nick: 'Nest debugger', funList: ['/device/debug'].map(callFunId) });
      const refused = await op.call('deviceDebug', { sn_id: sn, action: 'reboot' }, { lang: 'en' });
      expect(refused.body).toMatchObject({ code: ResultCode.BAD_REQUEST });
    } finally {
      await fleet.stop();
    }
  });
});

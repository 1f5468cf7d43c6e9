/**
 * Shared set-up for server tests with DJI docks on the link: a test server whose link is ready, a
 * registered DJI dock (protocol DJI, an M3D on a Dock 2), the broker login a dock uses, and the
 * simulator's emulated Dock 2 logged in with it and waited online.
 *
 *   const server = await startDjiTestServer();
 *   const dock = await startEmulatedDock(server, 'DJI-X1', { seed: 1 });
 *   ... await dock.stop(); await server.close();
 */
import { DeviceProtocol } from '@nest/contracts';
import type { DjiDock, DjiDockOptions } from '@nest/simulator';
import { djiPassword } from '../credentials.js';
import { startTestServer, type StartOptions, type TestServer } from '../../../test/helpers.js';
import { live, registerDevice, until } from '../../../test/live.js';
import { loadSimulator } from '../../../test/simulator.js';
import type { DeviceRow } from '../../db/schema.js';

/** Where the test docks stand unless a test says otherwise. */
export const DJI_HOME = { lat: 22.54, lng: 114.05 };

/** The drone sn a test dock is registered with: `<gateway>-UAV`. */
export const droneOf = (gw: string): string => `${gw}-UAV`;

/** A test server (startTestServer) whose device link is connected to its broker. */
export async function startDjiTestServer(options: StartOptions = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  await live(server).link.ready();
  return server;
}

/** Registers a DJI dock `gw` (protocol DJI, an M3D named `<gw>-UAV`) at `home` and reloads the link's directory. */
export function registerDjiDock(server: TestServer, gw: string, home: { lat: number; lng: number } = DJI_HOME): Promise<DeviceRow> {
  return registerDevice(server, { sn_id: gw, uav_sn: droneOf(gw), type: 'stable_mini', uav_model: 'M3D', protocol: DeviceProtocol.DJI, airport_point: home });
}

/** The broker login of a registered DJI dock (what `/device/add` answers in `dji`), first generation. */
export function djiLogin(server: TestServer, gw: string): { mqttUrl: string; username: string; password: string } {
  const l = live(server);
  return { mqttUrl: l.brokerUrl, username: gw, password: djiPassword(l.secrets.deviceKeyHex, gw, 0) };
}

export interface EmulatedDockOptions extends Partial<DjiDockOptions> {
  /** Register the dock first (default true); false when the test registered it itself. */
  register?: boolean;
  /**
   * Wait until the link has the drone's own OSD too (its storage, which the pre-flight checks need), not only
   * the dock online (default false).
   */
  telemetry?: boolean;
}

/**
 * Starts the simulator's emulated Dock 2 + M3D as `gw` with its broker login (timeScale 50, seed 1 and calm
 * weather unless given), and resolves once the link sees it online. The caller stops it (`dock.stop()`).
 */
export async function startEmulatedDock(server: TestServer, gw: string, options: EmulatedDockOptions = {}): Promise<DjiDock> {
  const { register = true, telemetry = false, ...overrides } = options;
  if (register) await registerDjiDock(server, gw);
  const sim = await loadSimulator();
  const dock = await sim.startDjiDock({
    ...djiLogin(server, gw),
    dockSn: gw,
    droneSn: droneOf(gw),
    position: { ...DJI_HOME, height: 40 },
    seed: 1,
    // No shower starts on its own (it would refuse a flight at a moment that depends on the machine's speed).
    calm: true,
    timeScale: 50,
    ...overrides,
  });
  const link = live(server).link;
  try {
    await until(() => link.isOnline(gw) && (!telemetry || (link.device(gw)?.telemetry?.drone?.storage.sdcard_totalsize ?? 0) > 0), `the emulated dock ${gw} online`);
  } catch (e) {
    await dock.stop();
    throw e;
  }
  return dock;
}

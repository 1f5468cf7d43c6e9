import { DeviceProtocol, demoText } from '@nest/contracts';
import { offsetMetres } from '@nest/geo';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ADMIN_COMPANY } from '../db/seed.js';
import { djiCredentials, djiMqttUrl } from '../devices/dji.js';
import { SnTakenError, createDevice, findDeviceBySn } from '../devices/store.js';
import { uavNameOf } from './devices.js';
import type { DemoServer } from './server.js';

/**
 * The demo's DJI docks (SIM_DJI_DOCKS): Dock 2s with an M3D each, registered as DJI Cloud API devices
 * (protocol 2) and played by the simulator's DJI dock emulator, which logs in with the credentials a real
 * dock would be given. They sit west of the simulation centre, clear of the nests' spiral.
 */
export interface DemoDjiDock {
  sn: string;
  droneSn: string;
  name: string;
  home: { lat: number; lng: number; alt: number };
}

/** Ground height of the demo docks (m); the emulator is given the ellipsoid height, the same here. */
const DOCK_ALT = 40;

export function demoDjiDocks(center: { lat: number; lng: number }, count: number): DemoDjiDock[] {
  const out: DemoDjiDock[] = [];
  for (let n = 1; n <= count; n++) {
    // 2.5 km west of the centre, then 1.2 km apart going south.
    const p = offsetMetres(center, -1_200 * (n - 1), -2_500);
    const label = `J${String(n).padStart(2, '0')}`;
    const sn = `SIM-DOCK2-${String(n).padStart(2, '0')}`;
    out.push({ sn, droneSn: `${sn}-M3D`, name: demoText('device.djiDock', { label }), home: { lat: Number(p.lat.toFixed(6)), lng: Number(p.lng.toFixed(6)), alt: DOCK_ALT } });
  }
  return out;
}

/** Registers the demo DJI docks that are missing (never changes existing ones); answers the sns added. */
export async function ensureDemoDjiDocks(db: Kysely<DB>, docks: readonly DemoDjiDock[], companyId = ADMIN_COMPANY): Promise<string[]> {
  const added: string[] = [];
  for (const d of docks) {
    if (await findDeviceBySn(db, d.sn)) continue;
    try {
      await createDevice(db, {
        type: 'stable_mini',
        protocol: DeviceProtocol.DJI,
        sn_id: d.sn,
        company_id: companyId,
        link_type: 1,
        airport_name: d.name,
        uav_name: uavNameOf(d.name),
        uav_sn: d.droneSn,
        address: demoText('device.address', { lat: d.home.lat.toFixed(4), lng: d.home.lng.toFixed(4) }),
        uav_model: 'M3D',
        description: demoText('device.description'),
        azimuth: 0,
        airport_point: { lat: d.home.lat, lng: d.home.lng },
        altn_point: null,
        beacon: { lat: d.home.lat, lng: d.home.lng, height: d.home.alt },
      });
      added.push(d.sn);
    } catch (err) {
      if (!(err instanceof SnTakenError)) throw err;
    }
  }
  return added;
}

/**
 * What the emulator of each demo dock is started with: the broker address and the dock's current
 * credentials (as the CLI prints them), its drone, place, the simulation's time scale, a seed, and live video on.
 */
export async function demoDjiLogins(server: DemoServer, docks: readonly DemoDjiDock[]) {
  const { app, config } = server;
  const { db, live } = app.nest.deps;
  const logins = [];
  for (const [i, d] of docks.entries()) {
    const row = await findDeviceBySn(db, d.sn);
    if (!row || Number(row.protocol) !== DeviceProtocol.DJI) continue;
    const c = djiCredentials(live.secrets.deviceKeyHex, row, djiMqttUrl({ deviceMqttUrl: null }, live.brokerUrl));
    logins.push({
      mqttUrl: c.mqtt_url,
      username: c.username,
      password: c.password,
      dockSn: d.sn,
      droneSn: row.uav_sn || d.droneSn,
      position: { lat: d.home.lat, lng: d.home.lng, height: d.home.alt },
      seed: 9100 + i,
      // SIM_WEATHER=calm: no showers over the emulated docks either.
      calm: config.simWeather === 'calm',
      timeScale: config.simTimeScale,
      // A real dock's OSD rate however fast the demo's time runs.
      osdWallClock: true,
      // Opening the dock's video in the console plays the emulator's test picture through the RTMP ingest.
      liveVideo: { log: (text: string) => app.log.info({ simulator: text }, 'dji dock emulator video') },
      log: (text: string) => app.log.info({ simulator: text }, 'dji dock emulator'),
    });
  }
  return logins;
}

import type { DeviceTypeKeyValue } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ADMIN_COMPANY } from '../db/seed.js';
import { SnTakenError, createDevice, findDeviceBySn } from './store.js';

/** What the simulator's demoFleet() describes per device (without its password). */
export interface DemoDeviceSpec {
  sn: string;
  kind: DeviceTypeKeyValue;
  name: string;
  uavSn: string;
  home: { lat: number; lng: number; alt: number };
}

const MODEL: Record<DeviceTypeKeyValue, string> = {
  stable: 'SIM-M30',
  stable_mini: 'SIM-M3D',
  mobile: 'SIM-M30T',
  alone: 'SIM-M3E',
};

/**
 * Registers the demo devices that are missing (company wk by default); never changes existing ones, so it
 * is safe on every start and from several instances. Answers the sns that were added.
 */
export async function ensureDemoDevices(db: Kysely<DB>, specs: readonly DemoDeviceSpec[], companyId = ADMIN_COMPANY): Promise<string[]> {
  const added: string[] = [];
  for (const s of specs) {
    if (await findDeviceBySn(db, s.sn)) continue;
    const nest = s.kind !== 'alone';
    try {
      await createDevice(db, {
        type: s.kind,
        sn_id: s.sn,
        company_id: companyId,
        link_type: nest ? 1 : 2,
        airport_name: nest ? s.name : '',
        uav_name: nest ? `${s.name} UAV` : s.name,
        uav_sn: s.uavSn,
        address: `Simulated (${s.home.lat.toFixed(4)}, ${s.home.lng.toFixed(4)})`,
        uav_model: MODEL[s.kind],
        description: 'Simulated device (SIMULATOR=on)',
        azimuth: nest ? 0 : -1,
        airport_point: { lat: s.home.lat, lng: s.home.lng },
        beacon: nest ? { lat: s.home.lat, lng: s.home.lng, height: s.home.alt } : null,
      });
      added.push(s.sn);
    } catch (err) {
      if (!(err instanceof SnTakenError)) throw err;
    }
  }
  return added;
}

import { demoText, demoTextOf, type DemoTextKey, type DeviceTypeKeyValue } from '@nest/contracts';
import type { Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { DB } from '../db/schema.js';
import { ADMIN_COMPANY } from '../db/seed.js';
import { SnTakenError, createDevice, findDeviceBySn } from '../devices/store.js';
import { alternateOf } from './fleet.js';

/** What the simulator's demoFleet() describes per device (without its password). */
export interface DemoDeviceSpec {
  sn: string;
  kind: DeviceTypeKeyValue;
  name: string;
  uavSn: string;
  home: { lat: number; lng: number; alt: number };
}

/** The demo text of a simulated nest's drone, by the nest's demo text. */
const UAV_OF: Partial<Record<DemoTextKey, DemoTextKey>> = {
  'device.nest': 'device.nestUav',
  'device.miniNest': 'device.miniNestUav',
  'device.mobileNest': 'device.mobileNestUav',
  'device.djiDock': 'device.djiDockUav',
};

/** The drone name of a nest: the demo text of a demo nest's drone, else "<nest name> UAV". */
export function uavNameOf(nestName: string): string {
  const nest = demoTextOf(nestName);
  const uav = nest ? UAV_OF[nest.key] : undefined;
  return uav ? demoText(uav, nest!.params) : `${nestName} UAV`;
}

const MODEL: Record<DeviceTypeKeyValue, string> = {
  stable: 'SIM-M30',
  stable_mini: 'SIM-M3D',
  mobile: 'SIM-M30T',
  alone: 'SIM-M3E',
};

/**
 * Registers the demo devices that are missing (company wk by default); never changes existing ones, so it
 * is safe on every start and from several instances (except: a nest registered before demo mode had
 * alternate landing points gets its point when it has none). Nests get an alternate landing point 250 m
 * north-east of home (fleet.ts; the simulator lands there). Answers the sns that were added.
 */
export async function ensureDemoDevices(db: Kysely<DB>, specs: readonly DemoDeviceSpec[], companyId = ADMIN_COMPANY): Promise<string[]> {
  const added: string[] = [];
  for (const s of specs) {
    const nest = s.kind !== 'alone';
    if (await findDeviceBySn(db, s.sn)) {
      if (nest) {
        const p = alternateOf(s.home);
        await db
          .updateTable('devices')
          .set({ altn_lat: p.lat, altn_lng: p.lng, updated_at: nowSeconds() })
          .where('sn_id', '=', s.sn)
          .where('altn_lat', 'is', null)
          .execute();
      }
      continue;
    }
    try {
      await createDevice(db, {
        type: s.kind,
        sn_id: s.sn,
        company_id: companyId,
        link_type: nest ? 1 : 2,
        airport_name: nest ? s.name : '',
        uav_name: nest ? uavNameOf(s.name) : s.name,
        uav_sn: s.uavSn,
        // Demo texts (contracts demo-texts): stored in Chinese, shown in the reader's language.
        address: demoText('device.address', { lat: s.home.lat.toFixed(4), lng: s.home.lng.toFixed(4) }),
        uav_model: MODEL[s.kind],
        description: demoText('device.description'),
        azimuth: nest ? 0 : -1,
        airport_point: { lat: s.home.lat, lng: s.home.lng },
        altn_point: nest ? alternateOf(s.home) : null,
        beacon: nest ? { lat: s.home.lat, lng: s.home.lng, height: s.home.alt } : null,
      });
      added.push(s.sn);
    } catch (err) {
      if (!(err instanceof SnTakenError)) throw err;
    }
  }
  return added;
}

import { AIRBORNE_FLIGHT_STATES, type FleetEntry, type LatLng, type TelemetryData } from '@nest/contracts';
import type { DeviceRow } from '../db/schema.js';
import type { LiveDevice } from '../link/adapter.js';
import { airportPoint } from './store.js';

/** Flight states in which the drone is away from its nest (takeoff, in air, landing, return). */
const AIRBORNE = new Set(AIRBORNE_FLIGHT_STATES);

/**
 * Last known position of a device: the drone while airborne, else the nest, else the drone, else the
 * registered airport point; null when nothing is known.
 */
export function positionOf(row: DeviceRow, telemetry: TelemetryData | null | undefined): LatLng | null {
  const drone = telemetry?.drone;
  const nest = telemetry?.nest;
  if (drone && AIRBORNE.has(drone.flight_state)) return { lat: drone.lat, lng: drone.lng };
  if (nest) return { lat: nest.lat, lng: nest.lng };
  if (drone) return { lat: drone.lat, lng: drone.lng };
  return airportPoint(row);
}

/** The map marker data of one device (310 FLEET_UPDATE entry); null without any known position. */
export function fleetEntryOf(row: DeviceRow, live: LiveDevice | undefined, state: number): FleetEntry | null {
  const pos = positionOf(row, live?.telemetry);
  if (!pos) return null;
  const drone = live?.telemetry?.drone;
  const azimuth = Number(row.azimuth);
  return {
    sn_id: row.sn_id,
    state,
    lat: pos.lat,
    lng: pos.lng,
    heading: drone?.heading ?? (azimuth >= 0 ? azimuth : 0),
    flight_state: drone?.flight_state ?? null,
    battery: drone?.battery.percent ?? null,
    height: drone?.height ?? null,
  };
}

import type { Feature, FeatureCollection, Point } from 'geojson';
import { AIRBORNE_FLIGHT_STATES, OnlineStatus, FlightState } from '@nest/contracts';
import { toMap, type BasemapId, type LatLng } from './basemaps';

/** What the map needs of a device. `state` is the online status (1 online, 2 offline, 3 connected by someone). */
export interface MapDevice {
  sn: string;
  name: string;
  state: number;
  position: LatLng | null;
  heading: number;
  /** FlightState of the drone, null when unknown. */
  flightState: number | null;
  /** A single-soldier drone (drawn as a drone even on the ground). */
  drone: boolean;
  /** Held (state 3) by the signed-in user: drawn in its own colour, not as someone else's hold. */
  mine?: boolean;
}

/** Marker colour by online status: online green, offline grey, connected by someone amber. */
export const MARKER_COLORS: Readonly<Record<1 | 2 | 3, string>> = { 1: '#2fd08b', 2: '#8a94a6', 3: '#f5a524' };

/** Marker colour of a device held by the signed-in user (blue: neither the route's amber nor the track's cyan). */
export const MARKER_COLOR_MINE = '#4f8dff';

/** The colour of a status; `mine` (the signed-in user holds the device) only matters for state 3. */
export function markerColor(state: number, mine = false): string {
  if (state === OnlineStatus.CONNECTED_BY_OTHER && mine) return MARKER_COLOR_MINE;
  return MARKER_COLORS[state as 1 | 2 | 3] ?? MARKER_COLORS[2];
}

/** Flight states in which the drone is away from the ground (drawn as a drone rotated by its heading). */
const AIRBORNE: ReadonlySet<number> = new Set(AIRBORNE_FLIGHT_STATES);
export const isFlying = (flightState: number | null): boolean => flightState !== null && AIRBORNE.has(flightState) && FlightState.has(flightState);

export interface MarkerProps {
  sn: string;
  name: string;
  state: number;
  /** Held by the signed-in user (state 3). */
  mine: boolean;
  color: string;
  heading: number;
  flying: boolean;
  drone: boolean;
}

/** Devices with a position as GeoJSON points in the basemap's coordinate system. */
export function devicesToGeoJson(devices: readonly MapDevice[], basemap: BasemapId): FeatureCollection<Point, MarkerProps> {
  const features: Feature<Point, MarkerProps>[] = [];
  for (const d of devices) {
    if (!d.position) continue;
    features.push({
      type: 'Feature',
      id: d.sn,
      geometry: { type: 'Point', coordinates: toMap(basemap, d.position) },
      properties: {
        sn: d.sn,
        name: d.name,
        state: d.state,
        mine: d.state === OnlineStatus.CONNECTED_BY_OTHER && !!d.mine,
        color: markerColor(d.state, d.mine),
        heading: d.heading,
        flying: isFlying(d.flightState),
        drone: d.drone,
      },
    });
  }
  return { type: 'FeatureCollection', features };
}

import type { Config } from '../config.js';
import { offsetM, type LatLng } from './plans.js';

/** Distance of a nest's alternate landing point from home, to the north-east (m). */
export const ALTERNATE_DISTANCE_M = 250;

/** The alternate landing point of a simulated nest: 250 m north-east of home. */
export const alternateOf = (home: LatLng): LatLng => {
  const d = ALTERNATE_DISTANCE_M / Math.SQRT2;
  return offsetM(home, d, d);
};

/**
 * Options of the simulator's startFleet (FleetOptions.timeScale, .mediaUrl; SimDeviceSpec.alternate) that
 * demoFleetOptions (demo/index.ts) adds: the time scale, where media uploads go (this server on loopback:
 * the launcher runs the fleet in the server's process, so the listening port is always reachable there)
 * and per nest an alternate landing point.
 */
export interface FleetExtras {
  timeScale: number;
  mediaUrl: string;
}

export const fleetExtras = (config: Pick<Config, 'simTimeScale'>, port: number): FleetExtras => ({
  timeScale: config.simTimeScale,
  mediaUrl: `http://127.0.0.1:${port}`,
});

/** A device spec (devices.ts DemoDeviceSpec) with its alternate landing point (nests only; a single-soldier drone has none). */
export const withAlternate = <S extends { kind: string; home: LatLng }>(spec: S): S & { alternate?: LatLng } =>
  spec.kind === 'alone' ? spec : { ...spec, alternate: alternateOf(spec.home) };

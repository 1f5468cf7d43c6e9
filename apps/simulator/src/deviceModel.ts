import type { DeviceTypeKeyValue, TelemetryData } from '@nest/contracts';
import { offsetMetres } from '@nest/geo';
import type { LatLng } from '@nest/geo';
import { DroneModel, Environment, MODEL, NestModel } from './model.js';
import type { Fault, ModelSpec } from './model.js';
import { FlightOps } from './ops.js';
import { createRng } from './rng.js';
import type { Rng } from './rng.js';

/**
 * One simulated device, pure and steppable like its parts (model.ts): the environment, the drone and the nest,
 * driven by the flight operations (ops.ts). It sits above both, so the operations use the parts without a
 * cycle back to the device.
 */

/** Rounds to one decimal. */
const round1 = (v: number): number => Math.round(v * 10) / 10;

/** Flat slow-moving facts; a change of any of them is published on the `state` topic. */
export type Facts = Record<string, string | number | boolean>;

/** One device: a nest with its drone, or a single-soldier drone flying its demo patrol. */
export class DeviceModel {
  readonly env: Environment;
  readonly drone: DroneModel;
  readonly nest: NestModel | null;
  readonly faults = new Set<Fault>();
  readonly ops: FlightOps;
  private readonly rng: Rng;

  constructor(
    readonly spec: ModelSpec,
    seed: number,
  ) {
    this.rng = createRng(seed);
    this.env = new Environment(this.rng, spec.calm ?? false);
    const isNest = spec.kind !== 'alone';
    this.drone = new DroneModel(spec.uavSn, spec.home, this.rng, isNest);
    this.drone.dockedHome = isNest;
    this.nest = isNest ? new NestModel(spec.kind, { lat: spec.home.lat, lng: spec.home.lng }) : null;
    this.ops = new FlightOps({
      kind: spec.kind,
      uavSn: spec.uavSn,
      home: spec.home,
      alternate: spec.alternate,
      drone: this.drone,
      nest: this.nest,
      env: this.env,
      faults: this.faults,
    });
  }

  get kind(): DeviceTypeKeyValue {
    return this.spec.kind;
  }

  inject(fault: Fault): void {
    this.faults.add(fault);
    this.applyFaults();
    if (fault === 'low_battery') this.drone.lowBattery();
  }

  clear(fault?: Fault): void {
    if (fault) this.faults.delete(fault);
    else this.faults.clear();
    this.applyFaults();
  }

  private applyFaults(): void {
    this.nest?.setHatchStuck(this.faults.has('hatch_stuck'));
    this.drone.setRtkLost(this.faults.has('rtk_loss'));
  }

  /**
   * Advances the world by `dt` seconds (subdivided into small steps). `nowMs` is the clock of event
   * timestamps (the device passes the wall clock); without it the clock advances with the steps.
   */
  step(dt: number, nowMs?: number): void {
    if (nowMs !== undefined) {
      this.ops.now = nowMs;
      this.explicitClock = true;
    }
    let left = Math.max(0, dt);
    while (left > 1e-9) {
      const h = Math.min(left, MODEL.maxSubstep);
      this.substep(h);
      left -= h;
    }
  }

  private substep(dt: number): void {
    const lowHeld = this.faults.has('low_battery');
    this.env.step(dt, this.faults.has('high_wind'));
    if (this.nest) this.nest.step(dt, this.drone, lowHeld);
    this.drone.step(dt, this.env, { chargerOn: this.nest?.charger === 1, lowBatteryHeld: lowHeld });
    this.ops.step(dt);
    if (!this.nest && this.ops.patrolAllowed()) this.patrol(lowHeld);
    else if (!this.nest && !this.ops.flight && this.drone.phase === 'ground') {
      // Patrol paused after a commanded flight: resting (idle), not in pre-flight checks.
      this.drone.restLeft = Math.max(this.drone.restLeft, MODEL.patrol.preflight + 1);
    }
    this.clockStep(dt);
  }

  private explicitClock = false;
  private clockStep(dt: number): void {
    if (!this.explicitClock) this.ops.now += dt * 1000;
  }


  /** Demo behaviour of a single-soldier drone: rest, take off, fly a loop, return, land, repeat. */
  private patrol(lowHeld: boolean): void {
    const d = this.drone;
    if (d.phase !== 'ground') return;
    const p = MODEL.patrol;
    // Ground crew work a few seconds before the next takeoff: fresh battery, media offloaded.
    if (d.restLeft <= p.swapLead) {
      if (!lowHeld && d.battery < p.swapBelow) d.swapBattery();
      d.offloadIfLow();
    }
    if (d.restLeft > 0) return;
    if (d.battery < p.swapBelow) {
      // Held low (fault): stay on the ground, look again shortly.
      d.restLeft = 5;
      return;
    }
    const rng = this.rng;
    const n = rng.int(p.waypointsMin, p.waypointsMax);
    const radius = rng.range(p.radiusMin, p.radiusMax);
    const start = rng.range(0, 360);
    const waypoints: LatLng[] = [];
    for (let i = 0; i < n; i++) {
      const a = ((start + (360 / n) * i + rng.range(-15, 15)) * Math.PI) / 180;
      const r = radius * rng.range(0.7, 1.1);
      waypoints.push(offsetMetres(this.spec.home, r * Math.cos(a), r * Math.sin(a)));
    }
    d.takeOff(waypoints, Math.round(rng.range(p.heightMin, p.heightMax)), round1(rng.range(p.speedMin, p.speedMax)));
  }

  telemetry(): TelemetryData {
    const drone = this.drone.telemetry();
    // Card faults (contracts PREFLIGHT.minTfFreeMb) and the camera settings the operator chose.
    if (this.faults.has('no_tf_card')) drone.storage = { sdcard_totalsize: 0, sdcard_free: 0 };
    else if (this.faults.has('tf_full')) drone.storage = { ...drone.storage, sdcard_free: Math.min(drone.storage.sdcard_free, 512) };
    const c = this.ops.camera.settings;
    drone.camera = { camera_iso: c.iso, camera_shutter: c.exp_mode === 0 ? drone.camera.camera_shutter : c.shutter, camera_exp_mode: c.exp_mode, camera_exp_value: c.exp_value, camera_awb: c.awb };
    return this.nest ? { nest: this.nest.telemetry(this.env, this.drone), drone } : { drone };
  }

  /** Slow-moving facts (flat keys) whose changes go out on the `state` topic. */
  facts(): Facts {
    const d = this.drone;
    const t = d.telemetry();
    const f: Facts = {
      'drone.flight_state': t.flight_state,
      'drone.flight_mode': t.flight_mode,
      'drone.powered': t.powered,
      'drone.charging': t.battery.charging,
      'drone.rtk_status': t.rtk.status,
      'drone.ntrip_state': t.rtk.ntrip_state,
    };
    if (this.nest) {
      const n = this.nest.telemetry(this.env, d);
      f['nest.hatch'] = n.hatch;
      f['nest.platform'] = n.platform;
      f['nest.tripod'] = n.tripod;
      f['nest.charger'] = n.charger;
      f['nest.drone_power'] = n.drone_power;
    }
    return f;
  }
}

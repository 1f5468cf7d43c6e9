import { ISO_OPTIONS, SHUTTER_OPTIONS } from '@nest/contracts';
import type { DeviceTypeKeyValue, DroneTelemetry, NestTelemetry, PartState } from '@nest/contracts';
import { angleDiff, bearing, haversineDistance, normDeg, offsetMetres } from '@nest/geo';
import type { LatLng } from '@nest/geo';
import type { Rng } from './rng.js';

/**
 * Pure, steppable models of the parts of one simulated device: its environment, its drone and its nest.
 * No timers and no I/O: `step(dtSeconds)` advances them, `telemetry()` reads them. Everything random comes
 * from the seeded PRNG, so the same seed and the same steps give the same numbers. The flight operations
 * (ops.ts) drive these parts; `DeviceModel` (deviceModel.ts) puts the parts and the operations together.
 */

export type Fault = 'offline' | 'hatch_stuck' | 'low_battery' | 'rtk_loss' | 'high_wind' | 'no_tf_card' | 'tf_full';
export const FAULTS: readonly Fault[] = ['offline', 'hatch_stuck', 'low_battery', 'rtk_loss', 'high_wind', 'no_tf_card', 'tf_full'];
export const isFault = (v: unknown): v is Fault => typeof v === 'string' && (FAULTS as readonly string[]).includes(v);

export interface ModelSpec {
  kind: DeviceTypeKeyValue;
  uavSn: string;
  home: { lat: number; lng: number; alt: number };
  /** Alternate landing point; default OPS.alternateOffset m north-east of home. */
  alternate?: { lat: number; lng: number };
  /** Fair weather only: no showers and wind at most MODEL.wind.calmMax (faults still apply). */
  calm?: boolean;
}

/** Numbers of the models, in one place (documented in docs/simulator.md). */
export const MODEL = {
  /** Longest internal integration step (s); `step` subdivides longer ones. */
  maxSubstep: 0.25,
  wind: { mean: 4, max: 12, calmMax: 6, faultMin: 14, faultMax: 18 },
  /** Patrol of single-soldier drones. */
  patrol: {
    heightMin: 80,
    heightMax: 120,
    speedMin: 8,
    speedMax: 12,
    radiusMin: 250,
    radiusMax: 600,
    waypointsMin: 3,
    waypointsMax: 5,
    restMin: 10,
    restMax: 20,
    climbRate: 5,
    descentRate: 3,
    /** Below this on the ground the battery is swapped before the next flight. */
    swapBelow: 40,
    /** The swap happens this many seconds before the end of the rest. */
    swapLead: 4,
    /** On the ground (4) this long after landing and before takeoff; idle (0) in between. */
    landedHold: 3,
    preflight: 4,
    /** In the air, below this the drone returns home. */
    returnBelow: 25,
  },
  accel: 2.5,
  turnRate: 45,
  battery: {
    /** Drain in flight (% per minute) and its wind and climb terms. */
    drainPerMin: 1,
    windPerMin: 0.08, // per m/s of wind
    climbPerMin: 0.15, // per m/s of climb
    idlePerMin: 0.05,
    chargePerMin: 1,
    fastChargePerMin: 2,
    fastBelow: 80,
    chargerRestartBelow: 99,
    lowFault: 15,
  },
  storage: { totalMb: 65_536, writeMbPerS: 2, offloadBelowMb: 4_096 },
  /** Durations of nest part transitions (s). */
  parts: { hatch: 12, platform: 8, tripod: 4 },
  rtk: { recoverySeconds: 12 },
} as const;

type NestPartKey = 'hatch' | 'platform' | 'tripod' | 'charger' | 'drone_power';

/** Flight phases behind the reported flight state / flight mode. */
export type Phase = 'docked' | 'ground' | 'takeoff' | 'cruise' | 'return' | 'landing' | 'guided';

/** Where a commanded (guided) drone flies: a point, a height above home, a speed, an optional heading. */
export interface GuideTarget {
  lat: number;
  lng: number;
  height: number;
  speed: number;
  yaw?: number;
}

/** Virtual-stick velocities (m/s forward, right, up; deg/s yaw). */
export interface StickVelocity {
  forward: number;
  right: number;
  up: number;
  yawRate: number;
}

interface PartMotion {
  target: 0 | 1;
  left: number;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const round = (v: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

export class Environment {
  windSpeed: number;
  windDirection: number;
  temperature: number;
  humidity: number;
  rainfall = 0;
  private rainLeft = 0;
  private baseTemp: number;
  private gustTarget: number | null = null;

  constructor(
    private readonly rng: Rng,
    private readonly calm = false,
  ) {
    this.windSpeed = rng.range(1, calm ? MODEL.wind.calmMax : 7);
    this.windDirection = rng.range(0, 360);
    this.baseTemp = rng.range(12, 28);
    this.temperature = this.baseTemp;
    this.humidity = rng.range(40, 75);
  }

  /** `highWind`: the wind is held in 14-18 m/s. */
  step(dt: number, highWind: boolean): void {
    const { rng } = this;
    const sq = Math.sqrt(dt);
    if (highWind) {
      this.gustTarget ??= rng.range(MODEL.wind.faultMin + 0.5, MODEL.wind.faultMax - 0.5);
      this.windSpeed += (this.gustTarget - this.windSpeed) * Math.min(1, 0.5 * dt) + rng.normal() * 0.3 * sq;
      this.windSpeed = clamp(this.windSpeed, MODEL.wind.faultMin, MODEL.wind.faultMax);
    } else {
      this.gustTarget = null;
      this.windSpeed += (MODEL.wind.mean - this.windSpeed) * Math.min(1, 0.01 * dt) + rng.normal() * 0.15 * sq;
      // Coming back from a storm: fall quickly into the normal band.
      if (this.windSpeed > MODEL.wind.max) this.windSpeed = Math.max(MODEL.wind.max, this.windSpeed - 2 * dt);
      else this.windSpeed = clamp(this.windSpeed, 0, this.calm ? MODEL.wind.calmMax : MODEL.wind.max);
    }
    this.windDirection = normDeg(this.windDirection + rng.normal() * 2 * sq);
    this.temperature = clamp(this.temperature + (this.baseTemp - this.temperature) * 0.001 * dt + rng.normal() * 0.02 * sq, -30, 50);
    if (this.rainLeft > 0) {
      this.rainLeft -= dt;
      if (this.rainLeft <= 0) this.rainfall = 0;
      else this.rainfall = clamp(this.rainfall + rng.normal() * 0.1 * sq, 0.2, 4);
    } else if (!this.calm && rng.chance(dt / 3600)) {
      // About one light shower an hour, 2-10 minutes long.
      this.rainLeft = rng.range(120, 600);
      this.rainfall = rng.range(0.5, 3);
    }
    const humTarget = this.rainfall > 0 ? 92 : 60;
    this.humidity = clamp(this.humidity + (humTarget - this.humidity) * 0.002 * dt + rng.normal() * 0.05 * sq, 10, 100);
  }
}

export class DroneModel {
  lat: number;
  lng: number;
  height = 0;
  hSpeed = 0;
  vSpeed = 0;
  heading: number;
  pitch = 0;
  roll = 0;
  battery: number;
  charging = false;
  batteryTemp: number;
  flightMode = 5;
  flightTime = 0;
  powered: boolean;
  phase: Phase;
  rtkStatus = 4;
  rtkSatellites: number;
  ntripState = 7;
  gpsSatellites: number;
  sdFree: number;
  iso = ISO_OPTIONS[0] ?? 100;
  shutter = '1/500';
  expMode = 0;
  expValue = 0;
  awb = 0;
  /** Seconds left resting on the ground (patrol) before the next takeoff. */
  restLeft = 0;
  /** Seconds on the ground since the last landing. */
  groundSeconds = 1_000;
  cruiseHeight = 100;
  cruiseSpeed = 10;
  waypoints: LatLng[] = [];
  waypointIndex = 0;
  private flightSeconds = 0;
  private rtkRecovering = 0;
  private rtkLost = false;

  constructor(
    readonly sn: string,
    readonly home: { lat: number; lng: number; alt: number },
    private readonly rng: Rng,
    docked: boolean,
  ) {
    this.lat = home.lat;
    this.lng = home.lng;
    this.heading = Math.round(rng.range(0, 360));
    this.battery = docked ? rng.range(55, 100) : rng.range(70, 100);
    this.batteryTemp = 25;
    this.powered = docked ? rng.chance(0.5) : true;
    this.phase = docked ? 'docked' : 'ground';
    this.restLeft = docked ? 0 : rng.range(1, MODEL.patrol.restMax);
    this.rtkSatellites = rng.int(20, 30);
    this.gpsSatellites = rng.int(18, 28);
    this.sdFree = MODEL.storage.totalMb - rng.range(2_000, 20_000);
    this.shutter = SHUTTER_OPTIONS.includes('1/500') ? '1/500' : (SHUTTER_OPTIONS[0] ?? '1/500');
  }

  get position(): LatLng {
    return { lat: this.lat, lng: this.lng };
  }

  get inAir(): boolean {
    return this.phase === 'takeoff' || this.phase === 'cruise' || this.phase === 'return' || this.phase === 'landing' || this.phase === 'guided';
  }

  /** Guided (commanded) flight, driven by ops.ts: target (null = hold), reported state, stick velocities. */
  guide: GuideTarget | null = null;
  guidedState: 1 | 2 | 3 | 8 = 2;
  stick: StickVelocity | null = null;
  /** Metres flown horizontally in the last step (for flight distance). */
  moved = 0;

  /** Switches to guided flight (from a patrol phase in the air, or from the ground for a commanded takeoff). */
  startGuided(state: 1 | 2 | 3 | 8): void {
    if (this.phase !== 'guided') {
      this.waypoints = [];
      this.flightSeconds = this.inAir ? this.flightSeconds : 0;
    }
    this.powered = true;
    this.charging = false;
    this.phase = 'guided';
    this.guidedState = state;
  }

  /** Touchdown of a guided flight: on the ground (or in the nest) with motors stopped. */
  touchdown(docked: boolean): void {
    this.height = 0;
    this.vSpeed = 0;
    this.hSpeed = 0;
    this.pitch = 0;
    this.roll = 0;
    this.flightMode = 5;
    this.flightTime = 0;
    this.guide = null;
    this.stick = null;
    this.phase = docked ? 'docked' : 'ground';
    this.restLeft = this.rng.range(MODEL.patrol.restMin, MODEL.patrol.restMax);
    this.groundSeconds = 0;
  }

  /** Puts a drone on the ground at a point (recovered by the ground crew). */
  placeAt(p: LatLng): void {
    this.lat = p.lat;
    this.lng = p.lng;
  }

  /** Flight state per contracts `FlightState`: 0 idle, 1 takeoff, 2 in air, 3 landing, 4 on ground, 8 return. */
  get flightState(): 0 | 1 | 2 | 3 | 4 | 8 {
    switch (this.phase) {
      case 'takeoff':
        return 1;
      case 'cruise':
        return 2;
      case 'guided':
        return this.guidedState;
      case 'landing':
        return 3;
      case 'return':
        return 8;
      case 'ground':
        // Motors just stopped after landing, or pre-flight checks before takeoff: on the ground (4);
        // in between, resting: idle (0).
        return this.groundSeconds < MODEL.patrol.landedHold || this.restLeft <= MODEL.patrol.preflight ? 4 : 0;
      case 'docked':
        return this.powered ? 4 : 0;
    }
  }

  homeDistance(): number {
    return haversineDistance(this.home, this.position);
  }

  /** Starts a flight: climb to `height`, fly the waypoints at `speed`, come home. */
  takeOff(waypoints: LatLng[], height: number, speed: number): void {
    if (this.inAir) return;
    this.powered = true;
    this.charging = false;
    this.phase = 'takeoff';
    this.flightMode = 5;
    this.cruiseHeight = height;
    this.cruiseSpeed = speed;
    this.waypoints = waypoints;
    this.waypointIndex = 0;
    this.flightSeconds = 0;
  }

  /** Return to home (no-op on the ground or when already returning / landing). */
  returnHome(): void {
    if (this.phase === 'takeoff' || this.phase === 'cruise') {
      this.phase = 'return';
      this.flightMode = 6;
    }
  }

  setRtkLost(lost: boolean): void {
    if (lost && !this.rtkLost) {
      this.rtkLost = true;
      this.rtkStatus = 0;
      this.rtkSatellites = 0;
      this.ntripState = this.rng.chance(0.5) ? 11 : 9;
      this.gpsSatellites = this.rng.int(4, 8);
    } else if (!lost && this.rtkLost) {
      this.rtkLost = false;
      this.rtkRecovering = MODEL.rtk.recoverySeconds;
      this.ntripState = 10;
      this.rtkStatus = 1;
    }
  }

  /** Drops the battery to the low-battery level (never raises it) and brings the drone home. */
  lowBattery(): void {
    this.battery = Math.min(this.battery, MODEL.battery.lowFault);
    this.returnHome();
  }

  step(dt: number, env: Environment, opts: { chargerOn: boolean; lowBatteryHeld: boolean }): void {
    const startBattery = this.battery;
    this.stepRtk(dt);
    this.moved = 0;
    if (this.phase === 'guided') this.stepGuided(dt, env);
    else if (this.inAir) this.stepFlight(dt, env);
    else this.stepGround(dt, opts.chargerOn, opts.lowBatteryHeld);
    if (opts.lowBatteryHeld) this.battery = Math.min(this.battery, MODEL.battery.lowFault);
    // In the air the battery never rises.
    if (this.inAir) this.battery = Math.min(this.battery, startBattery);
    this.battery = clamp(this.battery, 0, 100);
    const load = this.inAir ? 12 : this.charging ? 8 : 0;
    this.batteryTemp += (env.temperature + 5 + load - this.batteryTemp) * Math.min(1, 0.01 * dt);
  }

  private stepRtk(dt: number): void {
    const { rng } = this;
    if (!this.powered) return;
    if (this.rtkLost) return;
    if (this.rtkRecovering > 0) {
      this.rtkRecovering -= dt;
      const done = 1 - Math.max(0, this.rtkRecovering) / MODEL.rtk.recoverySeconds;
      this.ntripState = done < 0.3 ? 10 : done < 0.5 ? 2 : done < 0.7 ? 6 : 7;
      this.rtkStatus = done < 0.4 ? 1 : done < 0.8 ? 3 : 4;
      this.rtkSatellites = Math.round(24 * done);
      this.gpsSatellites = Math.round(6 + 16 * done);
      if (this.rtkRecovering <= 0) {
        this.rtkStatus = 4;
        this.ntripState = 7;
      }
      return;
    }
    if (rng.chance(dt / 20)) this.rtkSatellites = clamp(this.rtkSatellites + rng.int(-1, 1), 20, 30);
    if (rng.chance(dt / 20)) this.gpsSatellites = clamp(this.gpsSatellites + rng.int(-1, 1), 16, 30);
  }

  private stepGround(dt: number, chargerOn: boolean, lowBatteryHeld: boolean): void {
    this.hSpeed = 0;
    this.vSpeed = 0;
    this.pitch = 0;
    this.roll = 0;
    this.height = 0;
    this.flightTime = 0;
    const b = MODEL.battery;
    this.charging = this.phase === 'docked' && chargerOn && !lowBatteryHeld && this.battery < 100;
    if (this.charging) {
      this.battery += ((this.battery < b.fastBelow ? b.fastChargePerMin : b.chargePerMin) * dt) / 60;
    } else if (this.powered) {
      this.battery -= (b.idlePerMin * dt) / 60;
    }
    if (this.phase === 'ground') {
      this.restLeft -= dt;
      this.groundSeconds += dt;
    }
  }

  /** Commanded flight: towards the guide (or holding), or by stick velocities. */
  private stepGuided(dt: number, env: Environment): void {
    const p = MODEL.patrol;
    this.flightSeconds += dt;
    this.flightTime = Math.floor(this.flightSeconds);
    const prevH = this.hSpeed;
    let turn = 0;
    const start = this.position;
    if (this.stick) {
      const s = this.stick;
      turn = s.yawRate * dt;
      this.heading = normDeg(this.heading + turn);
      const rad = (this.heading * Math.PI) / 180;
      const north = s.forward * Math.cos(rad) - s.right * Math.sin(rad);
      const east = s.forward * Math.sin(rad) + s.right * Math.cos(rad);
      const next = offsetMetres(this.position, north * dt, east * dt);
      this.lat = next.lat;
      this.lng = next.lng;
      this.hSpeed = Math.hypot(s.forward, s.right);
      // The stick cannot fly the drone into the ground: descent stops 2 m above home.
      this.vSpeed = s.up < 0 && this.height + s.up * dt < 2 ? 0 : s.up;
      this.height += this.vSpeed * dt;
    } else {
      const g = this.guide;
      let wantH = 0;
      let wantV = 0;
      if (g) {
        const d = haversineDistance(this.position, g);
        wantH = Math.min(g.speed, Math.sqrt(2 * MODEL.accel * Math.max(0, d - 0.3)));
        if (d > 2) {
          const want = bearing(this.position, g);
          turn = clamp(angleDiff(this.heading, want), -MODEL.turnRate * dt, MODEL.turnRate * dt);
        } else if (g.yaw !== undefined) {
          turn = clamp(angleDiff(this.heading, g.yaw), -MODEL.turnRate * dt, MODEL.turnRate * dt);
        }
        this.heading = normDeg(this.heading + turn);
        const dh = g.height - this.height;
        wantV = dh >= 0 ? Math.min(p.climbRate, dh / dt) : -Math.min(p.descentRate, -dh / dt, Math.max(0.5, this.height / 3));
        if (d <= 0.3 && this.hSpeed < 0.5) {
          this.lat = g.lat;
          this.lng = g.lng;
          wantH = 0;
        }
      }
      const dv = clamp(wantH - this.hSpeed, -MODEL.accel * dt, MODEL.accel * dt);
      this.hSpeed = clamp(this.hSpeed + dv, 0, 30);
      if (this.hSpeed > 0 && g) {
        const step = Math.min(this.hSpeed * dt, haversineDistance(this.position, g));
        const rad = (bearing(this.position, g) * Math.PI) / 180;
        const next = offsetMetres(this.position, step * Math.cos(rad), step * Math.sin(rad));
        this.lat = next.lat;
        this.lng = next.lng;
      }
      this.vSpeed = wantV;
      this.height = Math.max(0, this.height + wantV * dt);
    }
    this.moved = haversineDistance(start, this.position);
    const accel = (this.hSpeed - prevH) / dt;
    const windRel = ((env.windDirection + 180 - this.heading) * Math.PI) / 180;
    this.pitch = round(clamp(-(this.hSpeed * 0.9 + accel * 2 + env.windSpeed * Math.cos(windRel) * 0.6), -35, 35), 1);
    this.roll = round(clamp((turn / dt) * 0.25 + env.windSpeed * Math.sin(windRel) * 0.6, -35, 35), 1);
    const b = MODEL.battery;
    const perMin = b.drainPerMin + env.windSpeed * b.windPerMin + Math.max(0, this.vSpeed) * b.climbPerMin;
    this.battery -= (perMin * dt) / 60;
  }

  private stepFlight(dt: number, env: Environment): void {
    const p = MODEL.patrol;
    this.flightSeconds += dt;
    this.flightTime = Math.floor(this.flightSeconds);
    const prevH = this.hSpeed;
    let wantH = 0;
    let wantV = 0;
    let target: LatLng | null = null;
    switch (this.phase) {
      case 'takeoff': {
        wantV = this.height < this.cruiseHeight ? Math.min(p.climbRate, (this.cruiseHeight - this.height) / dt) : 0;
        if (this.height >= this.cruiseHeight - 0.05) {
          this.height = this.cruiseHeight;
          if (this.waypoints.length > 0) {
            this.phase = 'cruise';
            this.flightMode = 3;
          } else {
            this.phase = 'return';
            this.flightMode = 6;
          }
        }
        break;
      }
      case 'cruise': {
        target = this.waypoints[this.waypointIndex] ?? null;
        if (!target) {
          this.phase = 'return';
          this.flightMode = 6;
          break;
        }
        wantH = this.cruiseSpeed;
        const d = haversineDistance(this.position, target);
        if (d < Math.max(3, this.hSpeed * dt * 1.5)) {
          this.waypointIndex += 1;
          if (this.waypointIndex >= this.waypoints.length) {
            this.phase = 'return';
            this.flightMode = 6;
          }
        }
        break;
      }
      case 'return': {
        target = this.home;
        const d = this.homeDistance();
        // Decelerate to stop over home.
        wantH = Math.min(this.cruiseSpeed, Math.sqrt(2 * MODEL.accel * Math.max(0, d - 0.5)));
        if (d < 1 && this.hSpeed < 0.6) {
          this.lat = this.home.lat;
          this.lng = this.home.lng;
          wantH = 0;
          this.phase = 'landing';
          this.flightMode = 9;
        }
        break;
      }
      case 'landing': {
        wantV = -Math.min(p.descentRate, this.height / dt, Math.max(0.5, this.height / 3));
        break;
      }
      default:
        break;
    }
    // Horizontal motion with limited acceleration and turn rate.
    const dv = clamp(wantH - this.hSpeed, -MODEL.accel * dt, MODEL.accel * dt);
    this.hSpeed = clamp(this.hSpeed + dv, 0, 30);
    let turn = 0;
    if (target && haversineDistance(this.position, target) > 0.5) {
      const want = bearing(this.position, target);
      turn = clamp(angleDiff(this.heading, want), -MODEL.turnRate * dt, MODEL.turnRate * dt);
      this.heading = normDeg(this.heading + turn);
    }
    if (this.hSpeed > 0) {
      let step = this.hSpeed * dt;
      if (target) step = Math.min(step, haversineDistance(this.position, target));
      this.moved = step;
      const rad = (this.heading * Math.PI) / 180;
      const next = offsetMetres(this.position, step * Math.cos(rad), step * Math.sin(rad));
      this.lat = next.lat;
      this.lng = next.lng;
    }
    this.vSpeed = wantV;
    this.height = Math.max(0, this.height + wantV * dt);
    // Attitude: forward tilt with speed and acceleration, bank in turns, wind pushes both.
    const accel = (this.hSpeed - prevH) / dt;
    const windRel = ((env.windDirection + 180 - this.heading) * Math.PI) / 180;
    const headWind = env.windSpeed * Math.cos(windRel);
    const crossWind = env.windSpeed * Math.sin(windRel);
    this.pitch = round(clamp(-(this.hSpeed * 0.9 + accel * 2 + headWind * 0.6), -35, 35), 1);
    this.roll = round(clamp((turn / dt) * 0.25 + crossWind * 0.6, -35, 35), 1);
    // Battery: base drain plus wind and climb terms.
    const b = MODEL.battery;
    const perMin = b.drainPerMin + env.windSpeed * b.windPerMin + Math.max(0, this.vSpeed) * b.climbPerMin;
    this.battery -= (perMin * dt) / 60;
    if (this.phase === 'cruise') {
      this.sdFree = Math.max(0, this.sdFree - MODEL.storage.writeMbPerS * dt);
      if (this.rng.chance(dt / 30)) this.shutter = this.rng.pick(['1/320', '1/400', '1/500', '1/640', '1/800', '1/1000']);
    }
    if (this.battery < p.returnBelow) this.returnHome();
    if (this.phase === 'landing' && this.height <= 0) {
      this.height = 0;
      this.vSpeed = 0;
      this.hSpeed = 0;
      this.pitch = 0;
      this.roll = 0;
      this.flightMode = 5;
      this.flightTime = 0;
      this.phase = this.dockedHome ? 'docked' : 'ground';
      this.restLeft = this.rng.range(MODEL.patrol.restMin, MODEL.patrol.restMax);
      this.groundSeconds = 0;
    }
  }

  /** Set by the owner: does this drone land in a nest? */
  dockedHome = false;

  telemetry(): DroneTelemetry {
    const on = this.powered;
    return {
      sn: this.sn,
      lat: round(this.lat, 7),
      lng: round(this.lng, 7),
      alt: round(this.home.alt + this.height, 2),
      height: round(this.height, 2),
      h_speed: round(this.hSpeed, 2),
      v_speed: round(this.vSpeed, 2),
      heading: round(this.heading, 1) % 360,
      pitch: this.inAir ? this.pitch : 0,
      roll: this.inAir ? this.roll : 0,
      battery: {
        percent: round(this.battery, 1),
        voltage: round(21 + (5.1 * this.battery) / 100 - (this.inAir ? 0.4 : 0), 2),
        temperature: round(this.batteryTemp, 1),
        charging: this.charging,
      },
      flight_state: this.flightState,
      flight_mode: this.flightMode,
      rtk: on
        ? { status: this.rtkStatus, satellites: this.rtkSatellites, ntrip_state: this.ntripState }
        : { status: 0, satellites: 0, ntrip_state: 0 },
      gps_satellites: on ? this.gpsSatellites : 0,
      home_distance: round(this.homeDistance(), 1),
      flight_time: this.flightTime,
      powered: on,
      storage: { sdcard_totalsize: MODEL.storage.totalMb, sdcard_free: Math.round(this.sdFree) },
      camera: {
        camera_iso: this.iso,
        camera_shutter: this.shutter,
        camera_exp_mode: this.expMode,
        camera_exp_value: this.expValue,
        camera_awb: this.awb,
      },
    };
  }

  /** Media offload on the ground when the card runs low (as if uploaded after the flight). */
  offloadIfLow(): void {
    if (!this.inAir && this.sdFree < MODEL.storage.offloadBelowMb) this.sdFree = MODEL.storage.totalMb - 1_000;
  }

  /** Single-soldier drones: a fresh battery when the pack ran low (only on the ground). */
  swapBattery(): void {
    if (!this.inAir) this.battery = 100;
  }
}

export class NestModel {
  hatch: PartState = 0;
  platform: PartState = 0;
  tripod: PartState = 1;
  charger: PartState = 0;
  /** A flow moves the parts itself (ops.ts): no automatic charger meanwhile. */
  manual = false;
  private motions: Partial<Record<'hatch' | 'platform' | 'tripod', PartMotion>> = {};
  private hatchStuck = false;

  constructor(
    readonly kind: DeviceTypeKeyValue,
    readonly position: LatLng,
  ) {}

  /** Only the large fixed nest has a lift platform. */
  get hasPlatform(): boolean {
    return this.kind === 'stable';
  }

  /** Starts moving a part; false when it cannot (stuck hatch, no platform). */
  move(part: 'hatch' | 'platform' | 'tripod', target: 0 | 1): boolean {
    if (part === 'platform' && !this.hasPlatform) return false;
    if (part === 'hatch' && this.hatchStuck) return false;
    if (this[part] === target) return true;
    this.motions[part] = { target, left: MODEL.parts[part] };
    this[part] = target === 1 ? 3 : 2;
    return true;
  }

  setHatchStuck(stuck: boolean): void {
    this.hatchStuck = stuck;
    if (stuck) {
      delete this.motions.hatch;
      this.hatch = 4;
    } else if (this.hatch === 4) {
      this.hatch = 0;
    }
  }

  step(dt: number, drone: DroneModel, lowBatteryHeld = false): void {
    for (const part of ['hatch', 'platform', 'tripod'] as const) {
      const m = this.motions[part];
      if (!m) continue;
      m.left -= dt;
      if (m.left <= 0) {
        this[part] = m.target;
        delete this.motions[part];
      }
    }
    const docked = drone.phase === 'docked';
    if (this.manual) return;
    if (!docked || lowBatteryHeld) this.charger = 0;
    else if (this.charger === 1 && drone.battery >= 100) this.charger = 0;
    else if (this.charger === 0 && drone.battery < MODEL.battery.chargerRestartBelow) this.charger = 1;
  }

  telemetry(env: Environment, drone: DroneModel): NestTelemetry {
    const parts: Record<NestPartKey, PartState> = {
      hatch: this.hatch,
      platform: this.hasPlatform ? this.platform : 0,
      tripod: this.tripod,
      charger: this.charger,
      drone_power: drone.powered ? 1 : 0,
    };
    return {
      lat: round(this.position.lat, 7),
      lng: round(this.position.lng, 7),
      ...parts,
      env: {
        wind_speed: round(env.windSpeed, 1),
        wind_direction: Math.round(env.windDirection) % 360,
        temperature: round(env.temperature, 1),
        humidity: round(env.humidity, 1),
        rainfall: round(env.rainfall, 1),
      },
    };
  }
}

import {
  FlightMethod,
  PREFLIGHT,
  Reason,
  STICK_EXIT_MS,
  STICK_HOLD_MS,
  STICK_NEUTRAL,
} from '@nest/contracts';
import type { CameraSettingsPatch, FlowStepValue, MissionPlan, Sticks } from '@nest/contracts';
import { CameraModel } from './camera.js';
import { advance, currentStep, fail, flowProgress, interrupt, isActive, newFlow, tick, timedStepDone, UNPAUSABLE } from './flows.js';
import type { FlowRun } from './flows.js';
import { haversineDistance, offsetMetres } from '@nest/geo';
import type { LatLng } from '@nest/geo';
import { missionProgress, newMission, stepMission, waypointHeight } from './mission.js';
import type { MissionRun } from './mission.js';
import type { DroneModel, Environment, Fault, NestModel } from './model.js';
import { MODEL } from './model.js';

/**
 * Flight operations of one device, pure: the commands of docs/device-protocol.md section 9.1,
 * the flows, the mission, the camera, and the events they raise. No timers and no I/O: the owner calls
 * `step(dt)` after the drone moved, then drains `events` (to publish) and `media` (to render and upload).
 */

export interface OpsEvent {
  method: string;
  bid: string;
  data: unknown;
}

export interface MediaRequest {
  kind: 'photo' | 'panorama' | 'video';
  /** Stable id (media_id of the upload). */
  id: string;
  flightId: string | null;
  takenAt: number;
  lat: number;
  lng: number;
  /** AMSL (m) and height above takeoff (m). */
  alt: number;
  height: number;
  heading: number;
  waypointIndex: number | null;
  /** Videos: seconds recorded. */
  duration: number | null;
}

/** A refused command: `output` of the reply (flightReplyOutput). */
export type Refusal = { one_key_error: number } | { refusal: number } | { reason: number };

/** Numbers of the operations (documented in docs/simulator.md). */
export const OPS = {
  /** The takeoff step ends this many metres above the nest. */
  takeoffClearHeight: 10,
  /** Lowest cruise height of a return or an alternate flight (m). */
  minTransitHeight: 30,
  transitSpeed: 10,
  /** Alternate point when the spec names none: this far north-east of home (m). */
  alternateOffset: 250,
  /** A commanded drone does not patrol until this long after its flight ended (ms). */
  patrolPauseMs: 5 * 60_000,
  /** Battery kept in reserve when judging whether home is reachable (%). */
  reservePercent: 3,
  /** A nest drone that came down at its alternate point is back in the nest after this long (s). */
  recoverSeconds: 600,
  stick: { maxSpeed: 10, maxClimb: 3, maxYawRate: 60 },
} as const;

interface FlightRecord {
  id: string;
  startedAt: number;
  airborne: boolean;
  commanded: boolean;
  distance: number;
  photos: number;
  missionId: string | null;
  missionName: string | null;
}

export interface OpsDevice {
  kind: string;
  uavSn: string;
  home: { lat: number; lng: number; alt: number };
  alternate?: LatLng;
  drone: DroneModel;
  nest: NestModel | null;
  env: Environment;
  faults: ReadonlySet<Fault>;
}

export class FlightOps {
  flow: FlowRun | null = null;
  mission: MissionRun | null = null;
  flight: FlightRecord | null = null;
  readonly camera = new CameraModel();
  stickMode = false;
  sport = false;
  /** Outboxes, drained by the owner. */
  events: OpsEvent[] = [];
  media: MediaRequest[] = [];
  /** Bumps on every flow / mission / camera / stick change (the owner publishes `state`). */
  version = 0;
  /** Clock (ms) used for timestamps; the owner sets it, pure tests let it advance with the steps. */
  now = 0;
  /** Stick timeouts are real time: with a time scale, sim seconds are divided by it. */
  timeScale = 1;
  patrolBlockedUntil = 0;
  private pendingMission: MissionPlan | null = null;
  private hoverHeight = 0;
  private alternateReason = 0;
  private alternateDecided: { at: number; droneState: number } | null = null;
  private landingInPlace = false;
  private stickIdle = 0;
  private seq = 0;

  constructor(private readonly dev: OpsDevice) {}

  get drone(): DroneModel {
    return this.dev.drone;
  }

  get alternatePoint(): LatLng {
    const d = OPS.alternateOffset / Math.SQRT2;
    return this.dev.alternate ?? offsetMetres(this.dev.home, d, d);
  }

  /** May the demo patrol take off now? (never while a commanded flight runs, nor 5 min after one) */
  patrolAllowed(): boolean {
    return !(this.flight?.commanded ?? false) && !isActive(this.flow) && this.now >= this.patrolBlockedUntil;
  }

  // -------------------------------------------------------------------------------------- commands

  takeoff(cmd: { flight_id: string; mission: MissionPlan | null; height: number }): Refusal | null {
    const d = this.drone;
    if (isActive(this.flow) || this.missionActive()) return { one_key_error: 1 };
    if (d.inAir) return { one_key_error: 3 };
    if (this.dev.nest && d.phase !== 'docked') return { one_key_error: 2 };
    if (this.dev.faults.has('hatch_stuck')) return { one_key_error: 6 };
    if (d.battery < PREFLIGHT.minBatteryPercent || this.dev.faults.has('low_battery')) return { one_key_error: 5 };
    this.beginCommanded(cmd.flight_id, cmd.mission);
    this.pendingMission = cmd.mission;
    this.hoverHeight = cmd.height;
    this.startFlow('takeoff');
    return null;
  }

  land(): Refusal | null {
    if (this.flowHoldsDrone()) return { one_key_error: 1 };
    if (!this.drone.inAir) return { one_key_error: 4 };
    this.takeOver();
    this.interruptMission();
    this.startReturn();
    return null;
  }

  missionStart(cmd: { flight_id: string; mission: MissionPlan }): Refusal | null {
    const d = this.drone;
    if (this.flowHoldsDrone() || this.missionActive()) return { reason: Reason.BUSY };
    if (!d.inAir) {
      // Only a single-soldier drone on the ground starts a route by itself (its short takeoff flow first).
      if (this.dev.nest || d.battery < PREFLIGHT.minBatteryPercent) return { reason: Reason.STATE };
      return this.takeoff({ flight_id: cmd.flight_id, mission: cmd.mission, height: cmd.mission.default_height }) ? { reason: Reason.STATE } : null;
    }
    if (this.landingInPlace) return { reason: Reason.STATE };
    this.takeOver();
    this.setStickMode(false);
    if (this.flight) {
      this.flight.missionId = cmd.mission.mission_id;
      this.flight.missionName = cmd.mission.name;
    }
    this.startMission(cmd.mission, cmd.flight_id);
    return null;
  }

  returnHome(): Refusal | null {
    if (!this.drone.inAir) return { reason: Reason.STATE };
    if (this.flowHoldsDrone()) return { reason: Reason.BUSY };
    this.takeOver();
    this.interruptMission();
    this.startReturn();
    return null;
  }

  landHere(): Refusal | null {
    if (!this.drone.inAir) return { reason: Reason.STATE };
    if (this.flowHoldsDrone()) return { reason: Reason.BUSY };
    this.takeOver();
    this.interruptMission();
    this.startLandHere();
    return null;
  }

  setMode(mode: number): Refusal | null {
    if (![3, 4, 5, 6, 9, 13].includes(mode)) return { reason: Reason.BAD_VALUE };
    if (!this.drone.inAir) return { reason: Reason.STATE };
    if (mode === 6) return this.returnHome();
    if (mode === 9) return this.landHere();
    this.sport = mode === 13;
    this.drone.flightMode = mode;
    this.changed();
    return null;
  }

  setStickMode(on: boolean): Refusal | null {
    if (on && (!this.drone.inAir || this.flowHoldsDrone() || this.landingInPlace)) return { reason: Reason.STATE };
    if (on === this.stickMode) return null;
    if (on) {
      this.takeOver();
      if (this.mission?.state === 'running') this.pauseMission();
      this.stickIdle = 0;
      this.drone.stick = { forward: 0, right: 0, up: 0, yawRate: 0 };
    } else {
      this.drone.stick = null;
      this.drone.guide = null;
    }
    this.stickMode = on;
    this.changed();
    return null;
  }

  /** A stick frame (no reply): velocities from the channels, 1500 neutral. */
  stickFrame(s: Sticks): void {
    if (!this.stickMode) return;
    const n = (v: number): number => (v - STICK_NEUTRAL) / 500;
    this.stickIdle = 0;
    this.drone.stick = {
      forward: n(s.pitch) * OPS.stick.maxSpeed,
      right: n(s.roll) * OPS.stick.maxSpeed,
      up: n(s.throttle) * OPS.stick.maxClimb,
      yawRate: n(s.yaw) * OPS.stick.maxYawRate,
    };
  }

  control(cmd: 1 | 2 | 3): Refusal | null {
    const flow = this.flow;
    const flowFirst = isActive(flow) && (flow.kind !== 'takeoff' || !this.drone.inAir);
    if (flowFirst || (isActive(flow) && !this.missionActive())) return this.controlFlow(flow!, cmd);
    if (this.missionActive()) return this.controlMission(cmd);
    return { refusal: 1 };
  }

  photo(): Refusal | null {
    const r = this.storageRefusal();
    if (r) return r;
    const n = this.camera.shoot();
    for (let i = 0; i < n; i++) this.addMedia('photo', null);
    this.changed();
    return null;
  }

  record(on: boolean): Refusal | null {
    if (on) {
      const r = this.storageRefusal();
      if (r) return r;
      this.camera.startRecording();
    } else {
      const secs = this.camera.stopRecording();
      if (secs > 0) this.addMedia('video', null, secs);
    }
    this.changed();
    return null;
  }

  setCamera(patch: CameraSettingsPatch): void {
    this.camera.apply(patch);
    this.changed();
  }

  setGimbal(g: { pitch?: number; yaw?: number; reset?: boolean }): void {
    this.camera.setGimbal(g);
    this.changed();
  }

  setZoom(z: number): void {
    this.camera.settings.zoom = z;
    this.changed();
  }

  // -------------------------------------------------------------------------------------- stepping

  step(dt: number): void {
    const d = this.drone;
    this.recoverStranded(dt);
    this.trackPatrolFlight();
    if (this.flight?.airborne) this.flight.distance += d.moved;
    for (let n = this.camera.step(dt); n > 0; n--) this.addMedia('photo', null);
    if (this.stickMode) {
      this.stickIdle += dt / Math.max(1e-6, this.timeScale);
      if (this.stickIdle * 1000 >= STICK_EXIT_MS) this.setStickMode(false);
      else if (this.stickIdle * 1000 >= STICK_HOLD_MS) d.stick = { forward: 0, right: 0, up: 0, yawRate: 0 };
    }
    if (this.flow?.state === 'running') this.stepFlow(dt);
    if (this.mission && !this.stickMode) this.stepMissionRun(dt);
    if (this.landingInPlace && d.phase === 'guided' && d.height <= 0) {
      this.landingInPlace = false;
      d.touchdown(false);
      this.endFlight(2);
    }
    this.checkBattery();
  }

  private strandedFor = 0;

  /** A nest drone down at its alternate point is carried back by the ground crew after a while. */
  private recoverStranded(dt: number): void {
    const d = this.drone;
    const nest = this.dev.nest;
    if (!nest || d.phase !== 'ground' || this.flight) {
      this.strandedFor = 0;
      return;
    }
    this.strandedFor += dt;
    if (this.strandedFor < OPS.recoverSeconds) return;
    this.strandedFor = 0;
    d.placeAt(this.dev.home);
    d.phase = 'docked';
    d.powered = false;
    nest.tripod = 1;
    this.changed();
  }

  // -------------------------------------------------------------------------------------- flows

  /**
   * Is a flow flying (or about to fly) the drone? The last steps of a takeoff (hatch close, battery load)
   * are nest-only: the drone is already on its way and may be commanded.
   */
  private flowHoldsDrone(): boolean {
    const f = this.flow;
    if (!isActive(f)) return false;
    const step = currentStep(f);
    return !(f.kind === 'takeoff' && (step === 'hatch_close' || step === 'battery_load'));
  }

  private startFlow(kind: 'takeoff' | 'landing' | 'alternate'): void {
    // A landing called while the nest still closes behind the drone supersedes the takeoff flow.
    if (isActive(this.flow)) {
      interrupt(this.flow);
      this.emitFlow();
    }
    const id = `${this.flight?.id ?? this.dev.uavSn}-${kind}-${++this.seq}`.slice(-64);
    this.flow = newFlow(id, kind, this.dev.kind, this.now);
    this.emitFlow();
    this.nextStep();
  }

  private nextStep(): void {
    const f = this.flow!;
    const prev = currentStep(f);
    if (prev) this.onStepEnd(prev);
    if (f.state !== 'running') return;
    const next = advance(f);
    if (next) this.onStepStart(next);
    else this.onFlowDone(f);
    this.emitFlow();
  }

  private onStepStart(step: FlowStepValue): void {
    const d = this.drone;
    const nest = this.dev.nest;
    const home = this.dev.home;
    switch (step) {
      case 'drone_start':
        d.powered = true;
        if (nest) {
          nest.manual = true;
          nest.charger = 0;
        }
        break;
      case 'hatch_open':
        if (this.dev.faults.has('hatch_stuck')) {
          fail(this.flow!, 3);
          this.emitFlow();
          if (this.flow!.kind === 'landing') this.startAlternate(1);
          else this.abortTakeoff();
          return;
        }
        if (nest) nest.hatch = 3;
        break;
      case 'platform_rise':
        if (nest) nest.platform = 3;
        break;
      case 'tripod_release':
        if (nest) nest.tripod = 2;
        break;
      case 'self_check':
        if (d.battery < PREFLIGHT.minBatteryPercent) {
          fail(this.flow!, 11);
          this.emitFlow();
          this.abortTakeoff();
        }
        break;
      case 'takeoff':
        d.startGuided(1);
        d.flightMode = 5;
        d.guide = { lat: home.lat, lng: home.lng, height: this.firstHeight(), speed: 0 };
        this.flightStarted();
        break;
      case 'hatch_close':
        if (nest) {
          nest.hatch = 2;
          if (nest.platform !== 0) nest.platform = 2;
        }
        break;
      case 'return':
        this.flyHome();
        break;
      case 'landing':
        d.guidedState = 3;
        d.flightMode = 9;
        d.guide = { lat: home.lat, lng: home.lng, height: 0, speed: 0 };
        break;
      case 'tripod_clamp':
        if (nest) nest.tripod = 3;
        break;
      case 'platform_lower':
        if (nest) nest.platform = 2;
        break;
      case 'drone_stop':
        break;
      case 'charge':
        if (nest) nest.charger = 3;
        break;
      case 'altn_decide':
        d.guide = null;
        break;
      case 'altn_fly': {
        const p = this.alternatePoint;
        d.guidedState = 2;
        d.flightMode = 3;
        d.guide = { lat: p.lat, lng: p.lng, height: Math.max(d.height, OPS.minTransitHeight), speed: OPS.transitSpeed };
        break;
      }
      case 'altn_land': {
        const p = this.alternatePoint;
        d.guidedState = 3;
        d.flightMode = 9;
        d.guide = { lat: p.lat, lng: p.lng, height: 0, speed: 0 };
        break;
      }
      default:
        break;
    }
  }

  private onStepEnd(step: FlowStepValue): void {
    const d = this.drone;
    const nest = this.dev.nest;
    switch (step) {
      case 'hatch_open':
        if (nest) nest.hatch = 1;
        break;
      case 'platform_rise':
        if (nest) nest.platform = 1;
        break;
      case 'tripod_release':
        if (nest) nest.tripod = 0;
        break;
      case 'takeoff':
        d.guidedState = 2;
        if (this.pendingMission) this.startMission(this.pendingMission, this.flight?.id ?? '');
        else d.guide = { lat: this.dev.home.lat, lng: this.dev.home.lng, height: this.hoverHeight, speed: 0 };
        this.pendingMission = null;
        break;
      case 'hatch_close':
        if (nest) {
          nest.hatch = 0;
          nest.platform = 0;
        }
        break;
      case 'landing':
        d.touchdown(nest !== null);
        d.placeAt(this.dev.home);
        break;
      case 'tripod_clamp':
        if (nest) nest.tripod = 1;
        break;
      case 'platform_lower':
        if (nest) nest.platform = 0;
        break;
      case 'drone_stop':
        d.powered = false;
        break;
      case 'charge':
        if (nest) nest.charger = 1;
        break;
      case 'altn_land':
        d.touchdown(false);
        break;
      default:
        break;
    }
  }

  private onFlowDone(f: FlowRun): void {
    if (this.dev.nest) this.dev.nest.manual = false;
    if (f.kind === 'landing') {
      if (this.mission?.state === 'returning') {
        this.mission.state = 'done';
        this.emitMission();
      }
      this.endFlight(3);
    } else if (f.kind === 'alternate') {
      const p = this.alternatePoint;
      const decided = this.alternateDecided ?? { at: this.now, droneState: 2 };
      this.emit(FlightMethod.ALTERNATE, {
        flight_id: this.flight?.id ?? '',
        reason: this.alternateReason,
        solution: 1,
        timestamp: Math.round(decided.at),
        drone_int: decided.droneState,
        altn_int: 0,
        place_int: 1,
        lat: Math.round(p.lat * 1e7) / 1e7,
        lng: Math.round(p.lng * 1e7) / 1e7,
      });
      this.endFlight(1);
    }
  }

  /** Conditions of the running step (timed steps: their duration; flying steps: arrival). */
  private stepFlow(dt: number): void {
    const f = this.flow!;
    tick(f, dt);
    const d = this.drone;
    const step = currentStep(f);
    let done = timedStepDone(f);
    if (step === 'takeoff') done = d.height >= Math.min(OPS.takeoffClearHeight, this.firstHeight()) - 0.05;
    else if (step === 'return') done = haversineDistance(d.position, this.dev.home) < 1.5 && d.hSpeed < 0.8;
    else if (step === 'landing' || step === 'altn_land') done = d.height <= 0;
    else if (step === 'altn_fly') done = haversineDistance(d.position, this.alternatePoint) < 1.5 && d.hSpeed < 0.8;
    if (!done) return;
    if (step === 'return' && f.kind === 'landing' && this.dev.nest) {
      // Over the nest: can it take the drone back? A stuck hatch fails at hatch_open (alternate, reason 1).
      if (this.badWeather()) {
        interrupt(f);
        this.emitFlow();
        this.startAlternate(2);
        return;
      }
    }
    this.nextStep();
  }

  private controlFlow(f: FlowRun, cmd: 1 | 2 | 3): Refusal | null {
    const step = currentStep(f);
    if (cmd === 1) {
      if (f.state === 'paused') return { refusal: 2 };
      if (step && UNPAUSABLE.has(step)) return { refusal: 4 };
      f.state = 'paused';
      this.drone.guide = this.drone.inAir ? null : this.drone.guide;
    } else if (cmd === 2) {
      if (f.state !== 'paused') return { refusal: 3 };
      f.state = 'running';
      // Flying steps set their target again.
      if (step === 'return' || step === 'altn_fly') this.onStepStart(step);
    } else {
      const pastReturn = f.kind === 'landing' && f.current > 0;
      if (pastReturn || f.kind === 'alternate' || step === 'takeoff' || (f.kind === 'takeoff' && this.drone.inAir)) return { refusal: 5 };
      interrupt(f);
      if (f.kind === 'takeoff') this.abortTakeoff();
      else this.drone.guide = null; // a return called off: hold where it is
    }
    this.emitFlow();
    return null;
  }

  /** Takeoff failed or interrupted before the drone left: the parts go back, the drone powers off. */
  private abortTakeoff(): void {
    const nest = this.dev.nest;
    if (nest) {
      nest.manual = false;
      nest.move('hatch', 0);
      nest.move('platform', 0);
      nest.move('tripod', 1);
    }
    this.drone.powered = this.dev.nest ? false : this.drone.powered;
    this.pendingMission = null;
    this.flight = null;
    this.patrolBlockedUntil = this.now + OPS.patrolPauseMs;
  }

  // -------------------------------------------------------------------------------------- flight

  private beginCommanded(id: string, plan: MissionPlan | null): void {
    this.landingInPlace = false;
    this.flight = {
      id,
      startedAt: this.now,
      airborne: false,
      commanded: true,
      distance: 0,
      photos: 0,
      missionId: plan?.mission_id ?? null,
      missionName: plan?.name ?? null,
    };
  }

  /** A command takes over a patrolling single-soldier drone (its flight goes on under control). */
  private takeOver(): void {
    const d = this.drone;
    if (this.flight) this.flight.commanded = true;
    if (d.inAir && d.phase !== 'guided') {
      d.startGuided(2);
      d.guide = null;
    }
  }

  private flightStarted(): void {
    const f = this.flight;
    if (!f || f.airborne) return;
    f.airborne = true;
    f.startedAt = this.now;
    this.emit(FlightMethod.FLIGHT_START, {
      flight_id: f.id,
      uav_sn: this.dev.uavSn,
      mission_id: f.missionId,
      mission_name: f.missionName,
      started_at: Math.round(this.now),
    });
  }

  private endFlight(place: 1 | 2 | 3): void {
    const f = this.flight;
    this.flight = null;
    this.stickMode = false;
    this.sport = false;
    if (!f) return;
    if (f.commanded) this.patrolBlockedUntil = this.now + OPS.patrolPauseMs;
    this.emit(FlightMethod.FLIGHT_END, {
      flight_id: f.id,
      ended_at: Math.round(this.now),
      distance: Math.round(f.distance * 10) / 10,
      place,
      photos: f.photos,
    }, f.id);
  }

  /** The demo patrol of single-soldier drones is a flight too: flight.start / flight.end. */
  private trackPatrolFlight(): void {
    const d = this.drone;
    const patrolling = d.phase === 'takeoff' || d.phase === 'cruise' || d.phase === 'return' || d.phase === 'landing';
    if (patrolling && !this.flight) {
      this.flight = { id: `${this.dev.uavSn}-P${++this.seq}`.slice(-64), startedAt: this.now, airborne: false, commanded: false, distance: 0, photos: 0, missionId: null, missionName: null };
      this.flightStarted();
    } else if (this.flight && !this.flight.commanded && this.flight.airborne && !d.inAir) {
      this.endFlight(3);
    }
  }

  private firstHeight(): number {
    const plan = this.pendingMission;
    const wp = plan?.waypoints[Math.min(plan.start_index ?? 0, plan.waypoints.length - 1)];
    return plan && wp ? waypointHeight(plan, wp, this.dev.home.alt) : this.hoverHeight;
  }

  private startReturn(): void {
    this.setStickMode(false);
    this.landingInPlace = false;
    const d = this.drone;
    // Not enough battery to reach home: alternate point (reason 3).
    if (this.dev.nest && !this.canReach(this.dev.home)) {
      this.startAlternate(3);
      return;
    }
    d.guidedState = 8;
    this.startFlow('landing');
  }

  private flyHome(): void {
    const d = this.drone;
    const h = Math.max(d.height, this.mission?.plan.return_height ?? OPS.minTransitHeight);
    d.guidedState = 8;
    d.flightMode = 6;
    d.guide = { lat: this.dev.home.lat, lng: this.dev.home.lng, height: h, speed: OPS.transitSpeed };
  }

  private startLandHere(): void {
    this.setStickMode(false);
    const d = this.drone;
    this.landingInPlace = true;
    d.guidedState = 3;
    d.flightMode = 9;
    d.guide = { lat: d.lat, lng: d.lng, height: 0, speed: 0 };
    this.changed();
  }

  private startAlternate(reason: 1 | 2 | 3): void {
    this.alternateReason = reason;
    this.alternateDecided = { at: this.now, droneState: this.drone.flightState };
    this.startFlow('alternate');
  }

  private badWeather(): boolean {
    return this.dev.env.windSpeed > PREFLIGHT.maxWindSpeed || this.dev.env.rainfall > PREFLIGHT.maxRainfall || this.dev.faults.has('high_wind');
  }

  private canReach(p: LatLng): boolean {
    const d = this.drone;
    const b = MODEL.battery;
    const minutes = haversineDistance(d.position, p) / OPS.transitSpeed / 60 + d.height / MODEL.patrol.descentRate / 60;
    const need = minutes * (b.drainPerMin + this.dev.env.windSpeed * b.windPerMin) + OPS.reservePercent;
    return d.battery >= need;
  }

  /** Low battery in the air: return (the landing flow decides on the alternate point). */
  private checkBattery(): void {
    const d = this.drone;
    if (d.phase !== 'guided' || this.landingInPlace || isActive(this.flow)) return;
    if (d.battery >= MODEL.patrol.returnBelow) return;
    this.interruptMission();
    this.startReturn();
  }

  // -------------------------------------------------------------------------------------- mission

  private missionActive(): boolean {
    return this.mission?.state === 'running' || this.mission?.state === 'paused';
  }

  private startMission(plan: MissionPlan, flightId: string): void {
    this.landingInPlace = false;
    this.mission = newMission(plan, flightId);
    this.drone.flightMode = 3;
    this.drone.guidedState = 2;
    this.emitMission();
  }

  private pauseMission(): void {
    if (this.mission?.state !== 'running') return;
    this.mission.state = 'paused';
    this.drone.guide = null;
    this.emitMission();
  }

  private interruptMission(): void {
    if (!this.missionActive()) return;
    this.mission!.state = 'interrupted';
    this.emitMission();
  }

  private controlMission(cmd: 1 | 2 | 3): Refusal | null {
    const m = this.mission!;
    if (cmd === 1) {
      if (m.state === 'paused') return { refusal: 2 };
      this.pauseMission();
    } else if (cmd === 2) {
      if (m.state !== 'paused') return { refusal: 3 };
      this.setStickMode(false);
      m.state = 'running';
      this.drone.flightMode = 3;
      this.emitMission();
    } else {
      this.interruptMission();
      this.startReturn();
    }
    return null;
  }

  private stepMissionRun(dt: number): void {
    const m = this.mission!;
    if (m.state !== 'running') return;
    const d = this.drone;
    stepMission(m, dt, {
      pos: d.position,
      height: d.height,
      heading: d.heading,
      homeAlt: this.dev.home.alt,
      sport: this.sport,
      moved: d.moved,
      guide: (g) => {
        d.guide = g;
      },
      photo: (kind, wp) => this.addMedia(kind, wp, null, true),
      gimbal: (pitch, yaw) => this.camera.setGimbal({ pitch, yaw }),
      progress: () => this.emitMission(),
      finish: (action) => {
        if (action === 20) this.startReturn();
        else if (action === 30) this.startLandHere();
        else d.guide = null;
      },
    });
  }

  // -------------------------------------------------------------------------------------- camera, events

  private storageRefusal(): Refusal | null {
    if (this.dev.faults.has('no_tf_card')) return { reason: Reason.NO_TF };
    if (this.dev.faults.has('tf_full')) return { reason: Reason.TF_FULL };
    return null;
  }

  private addMedia(kind: MediaRequest['kind'], waypointIndex: number | null, duration: number | null = null, counted = false): void {
    if (this.storageRefusal()) return;
    const d = this.drone;
    const f = this.flight;
    if (f && kind !== 'video') f.photos += 1;
    if (!counted && kind !== 'video' && this.mission?.state === 'running') this.mission.photos += 1;
    const n = ++this.seq;
    this.media.push({
      kind,
      id: `${this.dev.uavSn.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 40)}-${Math.round(this.now).toString(36)}-${n}`.slice(0, 64),
      flightId: f?.id ?? this.mission?.flightId ?? null,
      takenAt: Math.round(this.now),
      lat: d.lat,
      lng: d.lng,
      alt: this.dev.home.alt + d.height,
      height: d.height,
      heading: d.heading,
      waypointIndex,
      duration,
    });
  }

  private emit(method: string, data: unknown, bid = this.flight?.id ?? this.mission?.flightId ?? ''): void {
    this.events.push({ method, bid, data });
    this.changed();
  }

  private emitFlow(): void {
    if (this.flow) this.emit(FlightMethod.FLOW_PROGRESS, flowProgress(this.flow));
  }

  private emitMission(): void {
    if (this.mission) this.events.push({ method: FlightMethod.MISSION_PROGRESS, bid: this.mission.flightId, data: missionProgress(this.mission) });
    this.changed();
  }

  private changed(): void {
    this.version += 1;
  }
}

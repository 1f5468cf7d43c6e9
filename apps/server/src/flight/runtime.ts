import { randomUUID } from 'node:crypto';
import {
  CmdType,
  DEVICE_CONTROL_FUNCTION,
  FlightMethod,
  holds,
  ONE_KEY_TAKEOFF_HEIGHT,
  Reason,
  missionProgressSchema,
  stickFrameData,
  type ControlCommandData,
  type Lang,
  type LinkEnvelope,
  type PreflightCheck,
  type ProcessControlData,
  type StateData,
} from '@nest/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceRow, MissionRow } from '../db/schema.js';
import { DATABASE_UNAVAILABLE_TEXT, isDatabaseUnavailable } from '../db/unavailable.js';
import type { AppDeps } from '../deps.js';
import { buildCommand, navigationOf, type Needs } from './commands.js';
import { controlRefusal, firstFailure, inAir, preflight, type CheckFacts } from './checks.js';
import { PROCESS_CMD_TYPE, claimCommand, finishCommand, missionOfFlight } from './log.js';
import { OK, answerOf, detailOf, deviceRefusal, refused, verdictOfRow, type ReplyHead, type Verdict } from './reply.js';
import { planOf, routeFor, type RouteVerdict } from './route.js';
import { markPartFlown } from '../missions/api.js';
import type { Actor, CommandAnswer, FlightRuntime } from './types.js';

/** After a physical command timed out: how long the device's state may take to show it took effect. */
export const CONFIRM_MS = 2000;
/** Virtual-stick frames per device are forwarded at most this often (the console sends ~10-20 Hz). */
export const STICK_MIN_INTERVAL_MS = 40;

interface Sent {
  verdict: Verdict;
  detail: string;
  sent?: { method: string; params: unknown; flight_id: string | null };
}

/** A route's stored estimate (geo routeEstimate, saved with the route) for the endurance check. */
const enduranceOf = (m: MissionRow): CheckFacts['endurance'] => ({ est_time: Number(m.est_time), distance: Number(m.distance) });

const visible = (actor: Actor, device: DeviceRow): boolean => actor.all || device.company_id === actor.company_id;

/**
 * Who may not fly this device at all, whatever its state: a device outside the actor's company (shared
 * through a collaboration group: watched, never controlled), or a console user without the control
 * function. Refused before anything is logged or sent.
 */
function authorityRefusal(actor: Actor, device: DeviceRow | undefined, sn: string): number | null {
  if (!device || !visible(actor, device)) return actor.shared?.has(sn) ? Reason.SHARED_ONLY : Reason.NO_PERMISSION;
  if (actor.source === 'console' && !holds(actor.funList, DEVICE_CONTROL_FUNCTION)) return Reason.NO_CONTROL_FUNCTION;
  return null;
}

/**
 * Flight operations: every 401 / 473 command and launched route goes through `execute`:
 * 1. the command_log row is inserted first (cmd_id unique); a known cmd_id is never sent again and is
 *    answered from the log (or `pending`, reason 20, while it still runs);
 * 2. the checks the command needs (all pre-flight checks for takeoff and navigation);
 * 3. one link command with tid = cmd_id, not sent to an offline device, ended at once when the device
 *    drops; physical commands (takeoff, land, route start) are sent once, and a timeout is confirmed
 *    from the device's state before it is reported;
 * 4. the outcome is written back and answered (contracts commandReplyPush, texts in the actor's language).
 */
export class Runtime implements FlightRuntime {
  private readonly stickAt = new Map<string, number>();
  private readonly stickSeq = new Map<string, number>();
  /** flight_id -> route id of the flights this instance launched (the log answers for older ones). */
  private readonly flights = new Map<string, string>();
  /** Breakpoints from mission progress: the event is acknowledged once stored (else the device re-sends it). */
  private readonly onEvent = (sn: string, m: LinkEnvelope, settle?: (stored: Promise<unknown>) => void) => {
    if (m.method !== FlightMethod.MISSION_PROGRESS) return;
    const stored = this.progress(sn, m.data);
    settle?.(stored);
    void stored.catch((err: unknown) => this.log.warn({ err, sn }, 'flight: breakpoint update failed'));
  };

  constructor(
    private readonly deps: AppDeps,
    private readonly log: FastifyBaseLogger,
  ) {
    deps.live.link.on('event', this.onEvent);
  }

  async stop(): Promise<void> {
    this.deps.live.link.off('event', this.onEvent);
  }

  // ------------------------------------------------------------------------------------------ checks

  /**
   * The facts of the checks; with a found route, its stored estimate for the endurance check and the zone
   * it enters (named in `lang`) for the zone check.
   */
  private facts(device: DeviceRow, route?: RouteVerdict, lang: Lang = 'zh'): CheckFacts {
    const { link, status } = this.deps.live;
    const live = link.device(device.sn_id);
    return {
      enabled: Number(device.enabled) === 1,
      online: link.isOnline(device.sn_id),
      holder: status.holder(device.sn_id),
      state: live?.state ?? null,
      telemetry: live?.telemetry ?? null,
      ...(route ? { route: route.ok ? null : route.reason } : {}),
      ...(route?.ok ? { zone: route.zone?.[lang] ?? null, endurance: enduranceOf(route.mission) } : {}),
    };
  }

  async checks(actor: Actor, sn: string, missionId?: string, lang: Lang = 'zh'): Promise<{ ready: boolean; checks: PreflightCheck[] }> {
    const device = this.deps.live.directory.get(sn);
    if (!device || !visible(actor, device)) {
      return { ready: false, checks: [{ item: 'enabled', ok: false, reason: Reason.NO_PERMISSION, value: null }] };
    }
    const route = missionId ? await routeFor(this.deps.db, device, missionId) : undefined;
    const checks = preflight(actor, this.facts(device, route, lang));
    return { ready: checks.every((c) => c.ok), checks };
  }

  /** The checks a command needs: all pre-flight checks, or enabled + online + hold (+ in the air). */
  private gate(actor: Actor, device: DeviceRow, needs: Needs): Verdict | null {
    const f = this.facts(device);
    if (needs === 'all') {
      const checks = preflight(actor, f);
      const reason = firstFailure(checks);
      return reason === null ? null : refused(reason, checks);
    }
    if (!f.enabled) return refused(Reason.DISABLED);
    if (!f.online) return refused(Reason.OFFLINE);
    const control = controlRefusal(actor, f.holder);
    if (control !== null) return refused(control);
    // Unknown (no telemetry yet): the device decides.
    if (needs === 'air' && inAir(f.telemetry) === false) return refused(Reason.STATE);
    return null;
  }

  // ------------------------------------------------------------------------------------------ commands

  async control(actor: Actor, data: ControlCommandData, lang: Lang): Promise<CommandAnswer> {
    if (data.cmd_type === CmdType.STICK) return this.stick(actor, data, lang);
    const head: ReplyHead = { sn_id: data.sn_id, cmd_id: data.cmd_id ?? randomUUID(), cmd_type: data.cmd_type, action_cmd: data.action_cmd };
    const params = { value: data.value, ...(data.settings ? { settings: data.settings } : {}) };
    // The method is known up front except for navigation (takeoff or route start: decided when sent).
    const built = data.cmd_type === CmdType.NAVIGATION ? null : buildCommand(data);
    const method = built?.ok ? built.method : '';
    return this.execute(actor, head, { cmd_type: data.cmd_type, action_cmd: data.action_cmd, method, params }, lang, (device) =>
      data.cmd_type === CmdType.NAVIGATION ? this.navigate(actor, device, data, head.cmd_id, lang) : this.simple(actor, device, data, head.cmd_id),
    );
  }

  async process(actor: Actor, data: ProcessControlData, lang: Lang): Promise<CommandAnswer> {
    const head: ReplyHead = { sn_id: data.sn_id, cmd_id: data.cmd_id ?? randomUUID(), control_cmd: data.control_cmd };
    const body = { control_cmd: data.control_cmd };
    return this.execute(actor, head, { cmd_type: PROCESS_CMD_TYPE, action_cmd: data.control_cmd, method: FlightMethod.PROCESS, params: body }, lang, async (device) => {
      const gate = this.gate(actor, device, 'basic');
      if (gate) return { verdict: gate, detail: detailOf(gate) };
      return this.send(device.sn_id, FlightMethod.PROCESS, body, { cmdId: head.cmd_id, physical: false, flightId: null, params: body });
    });
  }

  launchMission(actor: Actor, opts: { sn: string; missionId: string; resume?: boolean; cmdId?: string }, lang: Lang): Promise<CommandAnswer> {
    return this.control(
      actor,
      { sn_id: opts.sn, cmd_type: CmdType.NAVIGATION, action_cmd: opts.resume ? 2 : 1, value: opts.missionId, ...(opts.cmdId ? { cmd_id: opts.cmdId } : {}) },
      lang,
    );
  }

  /** Log first, run once, write the outcome, answer. Never throws: a failure is logged and answered. */
  private async execute(
    actor: Actor,
    head: ReplyHead,
    entry: { cmd_type: number; action_cmd: number; method: string; params: unknown },
    lang: Lang,
    run: (device: DeviceRow) => Promise<Sent>,
  ): Promise<CommandAnswer> {
    const { db } = this.deps;
    const device = this.deps.live.directory.get(head.sn_id);
    // Not logged: a device the actor may not fly at all is not theirs to audit.
    const authority = authorityRefusal(actor, device, head.sn_id);
    if (authority !== null || !device) return answerOf(head, refused(authority ?? Reason.NO_PERMISSION), lang);
    let claimed: Awaited<ReturnType<typeof claimCommand>>;
    try {
      claimed = await claimCommand(db, actor, {
        cmd_id: head.cmd_id,
        sn_id: head.sn_id,
        company_id: device.company_id,
        cmd_type: entry.cmd_type,
        action_cmd: entry.action_cmd,
        method: entry.method,
        params: entry.params,
      });
    } catch (err) {
      this.log.error({ err, cmd_id: head.cmd_id }, 'flight: command log insert failed');
      const answer = answerOf(head, refused(Reason.DEVICE_REFUSED), lang);
      // Not sent, since it could not be logged first; the device refused nothing.
      return isDatabaseUnavailable(err) ? { ...answer, msg: DATABASE_UNAVAILABLE_TEXT[lang] } : answer;
    }
    if (!claimed.fresh) {
      // The same cmd_id for another device is not a repeat: refuse rather than leak or re-send.
      if (claimed.row.sn_id !== head.sn_id) return answerOf(head, refused(Reason.BAD_VALUE), lang);
      return answerOf(head, verdictOfRow(claimed.row), lang);
    }
    let result: Sent;
    try {
      result = await run(device);
    } catch (err) {
      this.log.error({ err, cmd_id: head.cmd_id }, 'flight: command failed');
      result = { verdict: refused(Reason.DEVICE_REFUSED), detail: 'server error' };
    }
    await finishCommand(db, head.cmd_id, result.verdict, result.detail, result.sent).catch((err: unknown) =>
      this.log.error({ err, cmd_id: head.cmd_id }, 'flight: command log update failed'),
    );
    return answerOf(head, result.verdict, lang);
  }

  private async simple(actor: Actor, device: DeviceRow, data: ControlCommandData, cmdId: string): Promise<Sent> {
    const built = buildCommand(data);
    if (!built.ok) return { verdict: refused(built.reason), detail: '' };
    const gate = this.gate(actor, device, built.needs);
    if (gate) return { verdict: gate, detail: detailOf(gate) };
    const flightId = built.method === FlightMethod.TAKEOFF ? randomUUID() : null;
    const body = flightId ? { flight_id: flightId, ...built.data } : built.data;
    return this.send(device.sn_id, built.method, body, { cmdId, physical: built.physical, flightId, params: body });
  }

  /**
   * cmd_type 8: the route re-validated, the breakpoint for a resume, every pre-flight check; then a nest on
   * the ground takes off with the route (flow.takeoff), a drone in the air or a single-soldier drone starts
   * it (mission.start).
   */
  private async navigate(actor: Actor, device: DeviceRow, data: ControlCommandData, cmdId: string, lang: Lang): Promise<Sent> {
    const nav = navigationOf(data);
    if (!nav) return { verdict: refused(Reason.BAD_VALUE), detail: '' };
    const route = await routeFor(this.deps.db, device, nav.missionId);
    if (route.ok && nav.resume && route.mission.breakpoint === null) return { verdict: refused(Reason.NO_BREAKPOINT), detail: '' };
    const f = this.facts(device, route, lang);
    const checks = preflight(actor, f);
    const reason = firstFailure(checks);
    if (reason !== null || !route.ok) {
      const v = refused(reason ?? Reason.ROUTE_INVALID, checks);
      return { verdict: v, detail: detailOf(v) };
    }
    const start = nav.resume ? Number(route.mission.breakpoint) : 0;
    const plan = planOf(route.mission, route.waypoints, start);
    const flightId = randomUUID();
    const takeoff = device.type !== 'alone' && inAir(f.telemetry) !== true;
    const method = takeoff ? FlightMethod.TAKEOFF : FlightMethod.MISSION_START;
    const body = takeoff ? { flight_id: flightId, mission: plan, height: ONE_KEY_TAKEOFF_HEIGHT } : { flight_id: flightId, mission: plan };
    // The log keeps what identifies the route, not its waypoints.
    const params = { flight_id: flightId, mission_id: plan.mission_id, name: plan.name, start_index: plan.start_index, waypoints: plan.waypoints.length };
    this.flights.set(flightId, plan.mission_id);
    return this.send(device.sn_id, method, body, { cmdId, physical: true, flightId, params });
  }

  private async send(
    sn: string,
    method: string,
    body: Record<string, unknown>,
    o: { cmdId: string; physical: boolean; flightId: string | null; params: unknown },
  ): Promise<Sent> {
    const sent = { method, params: o.params, flight_id: o.flightId };
    const outcome = await this.deps.live.link.command(sn, method, body, {
      tid: o.cmdId,
      abortOffline: true,
      ...(o.flightId ? { bid: o.flightId } : {}),
      ...(o.physical ? { resends: 0 } : {}),
    });
    const withFlight = (v: Verdict): Verdict => (o.flightId ? { ...v, flight_id: o.flightId } : v);
    switch (outcome.status) {
      case 'ok':
        return { verdict: withFlight(OK), detail: '', sent };
      case 'failed': {
        const v = deviceRefusal(outcome.reply);
        return { verdict: v, detail: detailOf(v, outcome.reply.message ?? ''), sent };
      }
      case 'offline':
        return { verdict: { outcome: 'offline', reason: Reason.OFFLINE }, detail: outcome.attempts === 0 ? 'not sent' : 'device dropped while waiting', sent };
      case 'timeout': {
        if (o.physical && (await this.confirm(sn, (s) => tookEffect(method, o.flightId, s)))) {
          return { verdict: withFlight(OK), detail: 'reply lost; confirmed by the device state', sent };
        }
        return { verdict: { outcome: 'timeout', reason: Reason.TIMEOUT }, detail: `no reply after ${outcome.attempts} attempt(s)`, sent };
      }
    }
  }

  /**
   * The checks of the commands waiting in confirm(). One 'state' listener on the link serves them all, on
   * while any waits: a listener per waiting command went past the emitter's limit of 10 under load
   * (MaxListenersExceededWarning), and each state message ran every one of them anyway.
   */
  private readonly confirming = new Set<(sn: string) => void>();
  private readonly onState = (sn: string) => {
    for (const check of [...this.confirming]) check(sn);
  };

  /** Waits up to CONFIRM_MS for a device state satisfying `pred` (the retained one counts). */
  private confirm(sn: string, pred: (s: StateData | null) => boolean): Promise<boolean> {
    const link = this.deps.live.link;
    if (pred(link.device(sn)?.state ?? null)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.confirming.delete(check);
        if (this.confirming.size === 0) link.off('state', this.onState);
        resolve(ok);
      };
      const check = (s: string) => {
        if (s === sn && pred(link.device(sn)?.state ?? null)) done(true);
      };
      const timer = setTimeout(() => done(false), CONFIRM_MS);
      if (this.confirming.size === 0) link.on('state', this.onState);
      this.confirming.add(check);
    });
  }

  /** A virtual-stick frame: checked, rate-limited, published without reply; answered only when refused. */
  private stick(actor: Actor, data: ControlCommandData, lang: Lang): CommandAnswer {
    const head: ReplyHead = { sn_id: data.sn_id, cmd_id: data.cmd_id ?? randomUUID(), cmd_type: data.cmd_type, action_cmd: data.action_cmd };
    const device = this.deps.live.directory.get(data.sn_id);
    const authority = authorityRefusal(actor, device, data.sn_id);
    if (authority !== null || !device) return answerOf(head, refused(authority ?? Reason.NO_PERMISSION), lang);
    if (!data.sticks) return answerOf(head, refused(Reason.BAD_VALUE), lang);
    const gate = this.gate(actor, device, 'basic');
    if (gate) return answerOf(head, gate, lang);
    const now = Date.now();
    const silent = { ...answerOf(head, OK, lang), silent: true };
    // Too fast: dropped without a word (the next frame carries the newer sticks anyway).
    if (now - (this.stickAt.get(data.sn_id) ?? 0) < STICK_MIN_INTERVAL_MS) return silent;
    this.stickAt.set(data.sn_id, now);
    const seq = (this.stickSeq.get(data.sn_id) ?? 0) + 1;
    this.stickSeq.set(data.sn_id, seq);
    const frame = stickFrameData.parse({ seq, ...data.sticks });
    if (!this.deps.live.link.publishCommand(data.sn_id, FlightMethod.STICK, frame)) return answerOf(head, refused(Reason.OFFLINE), lang);
    return silent;
  }

  // ------------------------------------------------------------------------------------------ breakpoints

  /**
   * mission.progress: `interrupted` stores the breakpoint (the waypoint to fly next) on the flight's route,
   * `done` clears it. Only for flights launched with a route (known from this instance or the log), and
   * only when the progress names that route.
   */
  private async progress(sn: string, data: unknown): Promise<void> {
    const parsed = missionProgressSchema.safeParse(data);
    if (!parsed.success) return;
    const p = parsed.data;
    if (p.state !== 'interrupted' && p.state !== 'done') return;
    const missionId = this.flights.get(p.flight_id) ?? (await missionOfFlight(this.deps.db, p.flight_id));
    if (!missionId || (p.mission_id !== null && p.mission_id !== missionId)) return;
    const breakpoint = p.state === 'interrupted' && p.waypoint_index < p.waypoint_count ? p.waypoint_index : null;
    await this.deps.db.updateTable('missions').set({ breakpoint }).where('id', '=', missionId).execute();
    if (p.state === 'done') await markPartFlown(this.deps.db, missionId);
    this.log.info({ sn, flight_id: p.flight_id, mission_id: missionId, breakpoint }, 'flight: route breakpoint updated');
  }
}

/** Did a physical command take effect although its reply was lost? The device state tells. */
export function tookEffect(method: string, flightId: string | null, s: StateData | null): boolean {
  if (!s) return false;
  if (method === FlightMethod.LAND) return s.flow?.kind === 'landing' && s.flow.state === 'running';
  if (!flightId) return false;
  return s.flow?.flow_id === flightId || s.mission?.flight_id === flightId;
}

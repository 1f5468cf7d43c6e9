import {
  COMMAND_MAX_RESENDS,
  COMMAND_TIMEOUT_MS,
  MaintFail,
  MaintenanceMethod,
  OP_IDLE_TIMEOUT_MS,
  OP_REASON_COMMAND,
  OP_REASON_LATER,
  PushMsgId,
  maintProgressEvent,
  type DeviceOpPush,
  type LinkEnvelope,
  type MaintProgressEvent,
  type MaintenanceKindValue,
} from '@nest/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { LiveDevice } from '../link/adapter.js';
import type { PushHub } from '../push/hub.js';
import { findOp, insertOp, outcomeOf, presentOp, runningOps, updateRunningOp, type NewOp, type OpPatch, type OpRow } from './store.js';

/** How often running operations are checked for silence (ms). */
export const SWEEP_MS = 5_000;

/** Tunables (tests shorten them through app.nest.services.maintenance.settings). */
export interface MaintenanceSettings {
  commandTimeoutMs: number;
  resends: number;
  idleTimeoutMs: Record<MaintenanceKindValue, number>;
}

/** What a command to the device came to (the operation row after it). */
export type Sent =
  | { status: 'ok'; row: OpRow; output: unknown }
  | { status: 'failed' | 'timeout' | 'offline'; row: OpRow };

/**
 * Device operations at run time (README.md): starts them (row first, then the command with tid = op id),
 * follows `maint.progress` events, ends them when the device drops (except an upgrade that reboots) or
 * goes silent for longer than OP_IDLE_TIMEOUT_MS, and pushes every change as 390 DEVICE_OP to the sockets
 * watching the device and to the user who started it. Nothing is kept in memory: a restarted server
 * continues from the rows (the device's next events find their row by op_id; the sweep expires the rest).
 */
export class Maintenance {
  readonly settings: MaintenanceSettings = {
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
    resends: COMMAND_MAX_RESENDS,
    idleTimeoutMs: { ...OP_IDLE_TIMEOUT_MS },
  };
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Per operation: its changes are applied one after the other (events of one op arrive in bursts). */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** The progress event is acknowledged once stored (else the device re-sends it). */
  private readonly onEvent = (sn: string, m: LinkEnvelope, settle?: (stored: Promise<unknown>) => void) => {
    if (m.method !== MaintenanceMethod.PROGRESS) return;
    const parsed = maintProgressEvent.safeParse(m.data);
    if (!parsed.success) {
      this.log.warn({ sn, issues: parsed.error.issues.slice(0, 3) }, 'maintenance: bad progress event dropped');
      return;
    }
    const stored = this.progress(sn, parsed.data);
    settle?.(stored);
    void stored.catch((err: unknown) => this.log.warn({ err, sn }, 'maintenance: progress update failed'));
  };
  private readonly onOnline = (sn: string, online: boolean, live: LiveDevice) => {
    // What presence means for an operation is written once, by the device's owner.
    if (!this.deps.live.link.owns(sn)) return;
    void this.presence(sn, online, live).catch((err: unknown) => this.log.warn({ err, sn }, 'maintenance: presence update failed'));
  };

  constructor(
    private readonly deps: AppDeps,
    private readonly hub: Pick<PushHub, 'publish' | 'broadcastToUser'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    const { link } = this.deps.live;
    link.on('event', this.onEvent);
    link.on('online', this.onOnline);
    this.sweepTimer = setInterval(() => {
      this.sweep().catch((err: unknown) => this.log.warn({ err }, 'maintenance: sweep failed'));
    }, SWEEP_MS);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    const { link } = this.deps.live;
    link.off('event', this.onEvent);
    link.off('online', this.onOnline);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await Promise.allSettled([...this.chains.values()]);
  }

  /** Runs `fn` after the earlier changes of the same operation. */
  private serial<T>(opId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(opId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(fn);
    this.chains.set(opId, next);
    void next.finally(() => {
      if (this.chains.get(opId) === next) this.chains.delete(opId);
    }).catch(() => undefined);
    return next;
  }

  /** Changes a running operation and pushes it; undefined when it was not running any more. */
  change(opId: string, patch: OpPatch): Promise<OpRow | undefined> {
    return this.serial(opId, () => this.apply(opId, patch));
  }

  private async apply(opId: string, patch: OpPatch): Promise<OpRow | undefined> {
    const row = await updateRunningOp(this.deps.db, opId, patch);
    if (row) this.push(row);
    return row;
  }

  /** 390 to the sockets watching the device and to the starter's sockets (a socket that is both gets it twice: rows are idempotent). */
  push(row: OpRow): void {
    const data: DeviceOpPush = { sn_id: row.sn_id, op: presentOp(row) };
    this.hub.publish(row.sn_id, PushMsgId.DEVICE_OP, data);
    if (row.u_id) this.hub.broadcastToUser(row.u_id, PushMsgId.DEVICE_OP, data);
  }

  /** Inserts the running row (OpRunningError when one of its kind runs) and pushes it. */
  async open(input: NewOp): Promise<OpRow> {
    const row = await insertOp(this.deps.db, input);
    this.push(row);
    return row;
  }

  /**
   * Sends the operation's command (tid = op id, so a re-send is recognised) and records what became of it:
   * a device refusal ends the row `failed` (reason: the device's failure code), no answer `timeout`, a
   * dropped device `offline`. On success the row stays as it is (running until the device's events end it,
   * or finished by the caller for one-shot settings).
   */
  async send(row: OpRow, method: string, data: unknown): Promise<Sent> {
    const outcome = await this.deps.live.link.command(row.sn_id, method, data, {
      tid: row.id,
      timeoutMs: this.settings.commandTimeoutMs,
      resends: this.settings.resends,
      abortOffline: true,
    });
    if (outcome.status === 'ok') return { status: 'ok', row, output: outcome.reply.output };
    let patch: OpPatch;
    if (outcome.status === 'failed') {
      const out = outcome.reply.output as { failure?: unknown } | undefined;
      const failure = typeof out?.failure === 'number' ? out.failure : outcome.reply.result;
      patch = { state: 'failed', reason: failure, outcome: { message: outcome.reply.message?.slice(0, 256) ?? '', failure } };
    } else {
      patch = { state: outcome.status, reason: OP_REASON_COMMAND };
    }
    const after = (await this.change(row.id, patch)) ?? (await findOp(this.deps.db, row.id)) ?? row;
    return { status: outcome.status, row: after };
  }

  /** A progress event: only for a running row of that device and kind; read and written in the op's turn. */
  progress(sn: string, e: MaintProgressEvent): Promise<OpRow | undefined> {
    return this.serial(e.op_id, async () => {
      const row = await findOp(this.deps.db, e.op_id);
      if (!row || row.sn_id !== sn || row.kind !== e.kind || row.state !== 'running') return undefined;
      const { op_id: _id, kind: _kind, state, progress, ...outcome } = e;
      // The log's success is its file: a device that says done without a stored upload did not deliver.
      if (state === 'ok' && row.kind === 'log' && !row.file_key) {
        return this.apply(row.id, { state: 'failed', reason: MaintFail.UPLOAD, outcome: { ...outcome, failure: MaintFail.UPLOAD } });
      }
      const patch: OpPatch = { progress, outcome };
      if (state !== 'running') patch.state = state;
      if (state === 'failed') patch.reason = outcome.failure ?? 0;
      return this.apply(row.id, patch);
    });
  }

  /**
   * Online / offline of a device. Offline ends its running operations `offline`, except an upgrade that
   * reached `reboot` (a reboot drops the link on purpose). Back online: an upgrade waiting for the reboot
   * succeeds when presence announces the target version.
   */
  async presence(sn: string, online: boolean, live: LiveDevice): Promise<void> {
    for (const { id } of await runningOps(this.deps.db, sn)) {
      await this.serial(id, async () => {
        const row = await findOp(this.deps.db, id);
        if (!row || row.state !== 'running') return;
        const rebooting = row.kind === 'upgrade' && outcomeOf(row).stage === 'reboot';
        if (!online && !rebooting) {
          await this.apply(id, { state: 'offline', reason: OP_REASON_LATER });
        } else if (online && rebooting && live.firmware) {
          const target = (JSON.parse(row.params) as { version_name?: string }).version_name;
          if (target && live.firmware === target) await this.apply(id, { state: 'ok', outcome: { stage: 'done', firmware: live.firmware } });
        }
      });
    }
  }

  /** Ends operations silent for longer than their kind allows (also rows left by a stopped server). */
  async sweep(now = Date.now()): Promise<void> {
    for (const row of await runningOps(this.deps.db)) {
      const limit = this.settings.idleTimeoutMs[row.kind as MaintenanceKindValue] ?? OP_IDLE_TIMEOUT_MS.upgrade;
      if (now - Number(row.updated_at) > limit) await this.change(row.id, { state: 'timeout', reason: OP_REASON_LATER });
    }
  }
}

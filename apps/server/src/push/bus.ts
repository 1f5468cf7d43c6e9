import { randomBytes } from 'node:crypto';
import type { AlarmPush, DataTopic } from '@nest/contracts';
import { clusterTopicRoot } from '../link/members.js';

/** The cluster's bus topic (server-internal: the broker ACL keeps devices out of nest-server/#). */
export const busTopic = (cluster: string): string => `${clusterTopicRoot(cluster)}/bus`;

/**
 * What one instance tells all instances (itself included). Each notice is something that happened once,
 * on the instance that handled a call or a device event, and that every instance's browsers (or live
 * bookkeeping) must learn about.
 */
export interface BusNotices {
  /** A push to the sockets watching a device (sortie, result, flow and mission progress, device ops). */
  device: { sn: string; msgId: number; data: unknown };
  /** A push to every socket of one user (map downloads, device ops). */
  user: { userId: string; msgId: number; data: unknown };
  /** 370: an alarm change, to the company's sockets whose user holds alarm_list. */
  alarm: { companyId: string; data: AlarmPush };
  /** A company's data changed (380 DATA_CHANGED is throttled per instance). */
  changed: { companyId: string; topic: DataTopic };
  /**
   * What some users (null: everybody) may do changed: signed out, deleted, disabled, password or validity
   * changed, functions or collaboration groups changed. Every instance re-reads those users' push sockets
   * at once: a session no longer live ends (46010, then closed), the rest are re-scoped.
   */
  access: { userIds: string[] | null };
  /** A sortie began or ended: every instance records the open sortie's track. */
  sortie: { sn: string; sortId: string; flightId: string; missionName: string; open: boolean };
  /**
   * The device registry changed through some instance (added, edited, moved, enabled or disabled, deleted,
   * new credentials): every instance reads its device directory again at once, so company scope, the device
   * list and the link's checks follow without waiting for the periodic reload.
   */
  devices: Record<string, never>;
}
export type BusKind = keyof BusNotices;

/** What carries notices to the other instances (the link's MQTT client), or null for one instance. */
export interface BusTransport {
  publish(payload: string): void;
}

interface Wire {
  /** Origin instance: an instance applies its own notices at once and skips their echo. */
  o: string;
  k: BusKind;
  n: unknown;
}

type Handler<K extends BusKind> = (notice: BusNotices[K]) => void;

const KINDS: readonly BusKind[] = ['device', 'user', 'alarm', 'changed', 'access', 'sortie', 'devices'];

/**
 * Notices between server instances over the MQTT broker they share (QoS 1 on the cluster's bus topic).
 *
 * `send` applies a notice locally at once (same code path with one instance or many) and, when the
 * deployment can have other instances (an external broker), publishes it; each instance applies what
 * the others publish. A notice is applied by every instance exactly once while it is connected; an
 * instance that is disconnected misses notices, which only ever affect what its browsers are shown live
 * (they catch up at their next list refresh) and which sortie tracks it helps record.
 */
export class ClusterBus {
  private readonly handlers = new Map<BusKind, Set<(notice: unknown) => void>>();
  private transport: BusTransport | null = null;
  readonly stats = { sent: 0, received: 0, rejected: 0 };

  /** `instanceId`: the instance's name on the bus (the link's MQTT client id, as in the member list). */
  constructor(readonly instanceId: string = randomBytes(6).toString('hex')) {}

  /** Other instances exist only with an external broker: then notices go out through it. */
  connect(transport: BusTransport | null): void {
    this.transport = transport;
  }

  on<K extends BusKind>(kind: K, handler: Handler<K>): () => void {
    let set = this.handlers.get(kind);
    if (!set) this.handlers.set(kind, (set = new Set()));
    set.add(handler as (notice: unknown) => void);
    return () => set.delete(handler as (notice: unknown) => void);
  }

  /** Applies a notice here and on every other instance. */
  send<K extends BusKind>(kind: K, notice: BusNotices[K]): void {
    this.apply(kind, notice);
    this.share(kind, notice);
  }

  /** Sends a notice to the other instances only (the caller applied it here itself). */
  share<K extends BusKind>(kind: K, notice: BusNotices[K]): void {
    if (!this.transport) return;
    this.stats.sent++;
    this.transport.publish(JSON.stringify({ o: this.instanceId, k: kind, n: notice } satisfies Wire));
  }

  /** A message on the bus topic (from any instance; our own echo is skipped). */
  receive(payload: Buffer): void {
    let wire: Partial<Wire>;
    try {
      wire = JSON.parse(payload.toString('utf8')) as Partial<Wire>;
    } catch {
      this.stats.rejected++;
      return;
    }
    if (typeof wire !== 'object' || wire === null || typeof wire.o !== 'string' || !KINDS.includes(wire.k as BusKind)) {
      this.stats.rejected++;
      return;
    }
    if (wire.o === this.instanceId) return;
    if (typeof wire.n !== 'object' || wire.n === null) {
      this.stats.rejected++;
      return;
    }
    this.stats.received++;
    this.apply(wire.k as BusKind, wire.n);
  }

  private apply(kind: BusKind, notice: unknown): void {
    for (const h of this.handlers.get(kind) ?? []) h(notice);
  }
}

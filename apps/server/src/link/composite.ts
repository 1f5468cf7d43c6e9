import { EventEmitter } from 'node:events';
import { DeviceProtocol } from '@nest/contracts';
import type { CommandOptions, CommandOutcome, DeviceLink, DeviceLookup, DropReason, LinkDiagnostics, LinkEvents } from './adapter.js';
import type { DeviceLinkCounts } from './stats.js';

/**
 * One DeviceLink over the nest adapter and the DJI adapter: calls about one device go to the adapter of
 * its registered protocol (nest when unknown), events of both reach the listeners, diagnostics add up.
 * Internal notices, cluster and broker access are the nest adapter's (one broker, one cluster).
 */
export class CompositeLink extends EventEmitter<LinkEvents> implements DeviceLink {
  constructor(
    private readonly nest: DeviceLink,
    private readonly dji: DeviceLink,
    private readonly devices: DeviceLookup,
  ) {
    super();
    // Passed on argument by argument (no rest array per message: telemetry comes thousands of times a second).
    for (const link of [nest, dji]) {
      link.on('online', (sn, online, live) => this.emit('online', sn, online, live));
      link.on('telemetry', (sn, live, json) => this.emit('telemetry', sn, live, json));
      link.on('state', (sn, live) => this.emit('state', sn, live));
      link.on('event', (sn, message, settle) => this.emit('event', sn, message, settle));
    }
    nest.on('internal', (topic, payload) => this.emit('internal', topic, payload));
    nest.on('connected', () => this.emit('connected'));
  }

  /** The adapter serving a device: DJI for protocol 2, else the nest protocol. */
  private of(sn: string): DeviceLink {
    return Number(this.devices.get(sn)?.protocol ?? DeviceProtocol.NEST) === DeviceProtocol.DJI ? this.dji : this.nest;
  }

  start(): void {
    this.nest.start();
    this.dji.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.nest.stop(), this.dji.stop()]);
  }

  async ready(): Promise<void> {
    await Promise.all([this.nest.ready(), this.dji.ready()]);
  }

  device(sn: string) {
    return this.of(sn).device(sn);
  }

  isOnline(sn: string): boolean {
    return this.of(sn).isOnline(sn);
  }

  forget(sn: string): void {
    // Both: a device whose protocol changed may still be known to the other adapter.
    this.nest.forget(sn);
    this.dji.forget(sn);
  }

  owns(sn: string): boolean {
    return this.nest.owns(sn);
  }

  command(sn: string, method: string, data: unknown, opts?: CommandOptions): Promise<CommandOutcome> {
    return this.of(sn).command(sn, method, data, opts);
  }

  publishCommand(sn: string, method: string, data: unknown): boolean {
    return this.of(sn).publishCommand(sn, method, data);
  }

  publishInternal(topic: string, payload: string): void {
    this.nest.publishInternal(topic, payload);
  }

  disconnect(sn: string): Promise<void> {
    return this.nest.disconnect(sn);
  }

  get clientId(): string {
    return this.nest.clientId;
  }

  get connected(): boolean {
    return this.nest.connected && this.dji.connected;
  }

  get stats(): LinkDiagnostics['stats'] {
    const a = this.nest.stats;
    const b = this.dji.stats;
    const dropped: Partial<Record<DropReason, number>> = { ...a.dropped };
    for (const [k, v] of Object.entries(b.dropped) as [DropReason, number][]) dropped[k] = (dropped[k] ?? 0) + v;
    return { ...a, received: a.received + b.received, accepted: a.accepted + b.accepted, dropped, superseded: (a.superseded ?? 0) + (b.superseded ?? 0) };
  }

  get counters(): LinkDiagnostics['counters'] {
    return { read: (sn: string, now?: number): DeviceLinkCounts | null => this.of(sn).counters.read(sn, now) };
  }

  get cluster(): LinkDiagnostics['cluster'] {
    return this.nest.cluster;
  }
}

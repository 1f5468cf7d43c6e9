/**
 * A nest driven by a test over raw MQTT: keeps itself online, records every command it gets, answers them
 * as told. Cases the simulator cannot produce (a lost reply, a device that never answers) need it.
 */
import { MIN_TELEMETRY_HZ, topicOf, type LinkEnvelope, type TelemetryData } from '@nest/contracts';
import { nestDroneTelemetry } from '../src/flight/fixtures.js';
import type { TestServer } from './helpers.js';
import { RawDevice, envelope, live, until } from './live.js';

/** How often a fake nest sends its telemetry. */
const RATE_HZ = 10;

export type Reply = { result: number; output?: unknown } | null;

/**
 * It announces the
 * slowest rate a device may, so only seconds of silence take it offline (a busy machine never does), while
 * it sends telemetry at RATE_HZ so a change of its telemetry shows at once.
 */
export class FakeNest {
  readonly commands: LinkEnvelope[] = [];
  telemetry: TelemetryData = nestDroneTelemetry();
  respond: (m: LinkEnvelope) => Reply = () => ({ result: 0 });
  private timer: NodeJS.Timeout | null = null;
  private constructor(
    readonly sn: string,
    public raw: RawDevice,
    /** Connects with a last-will: a dropped connection takes it offline at once. */
    private readonly withWill: boolean,
  ) {}

  static async start(server: TestServer, sn: string, opts: { withWill?: boolean } = {}): Promise<FakeNest> {
    const withWill = opts.withWill ?? false;
    const n = new FakeNest(sn, await RawDevice.connect(server, sn, { withWill }), withWill);
    await n.attach(server);
    return n;
  }

  private async attach(server: TestServer): Promise<void> {
    await this.raw.subscribe(topicOf(this.sn, 'commands'));
    this.raw.client.on('message', (topic, payload) => {
      if (topic !== topicOf(this.sn, 'commands')) return;
      const m = JSON.parse(payload.toString('utf8')) as LinkEnvelope;
      this.commands.push(m);
      const reply = this.respond(m);
      if (reply) void this.raw.publish('commands_reply', envelope(`${m.method}_reply`, reply, m.tid), { qos: 1 });
    });
    await this.raw.publish('presence', envelope('presence', { online: true, rate_hz: MIN_TELEMETRY_HZ }), { qos: 1 });
    this.timer = setInterval(() => void this.raw.publish('telemetry', envelope('telemetry', this.telemetry)), 1000 / RATE_HZ);
    await until(() => live(server).link.isOnline(this.sn) && live(server).link.device(this.sn)?.telemetry != null, `${this.sn} online`);
  }

  async reconnect(server: TestServer): Promise<void> {
    this.raw = await RawDevice.connect(server, this.sn, { withWill: this.withWill });
    await this.attach(server);
  }

  /** Drops the link without a word (the broker publishes the last-will, if it has one). */
  drop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.raw.drop();
  }

  of(method: string): LinkEnvelope[] {
    return this.commands.filter((c) => c.method === method);
  }

  event(method: string, data: unknown): Promise<void> {
    return this.raw.publish('events', envelope(method, data), { qos: 1 });
  }

  state(data: unknown): Promise<void> {
    return this.raw.publish('state', envelope('state', data), { qos: 1, retain: true });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.raw.end();
  }
}


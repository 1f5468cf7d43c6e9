import type { Duplex } from 'node:stream';
import mqtt, { MqttClient, type IClientOptions, type ISubscriptionGrant } from 'mqtt';

/** The broker embedded in this process, as the server's link reaches it (broker/index.ts). */
export interface InProcessBroker {
  /**
   * A new MQTT connection in memory: no sockets, no system calls, the broker's deliveries handed over as
   * buffers.
   */
  connectInProcess(): Duplex;
  /**
   * Every message published on topics matching `filter`, handed to `deliver` as the broker routes it: no
   * MQTT packet is written or read for it. Answers the function that ends the subscription.
   */
  subscribeInProcess(filter: string, deliver: (topic: string, payload: Buffer) => void): () => void;
}

/** How a link reaches its broker: an MQTT URL (TCP: an external Mosquitto), or the broker in this process. */
export type BrokerEndpoint = string | InProcessBroker;

/**
 * The MQTT connection of a device-link adapter (nest and DJI): MQTT 3.1.1, a clean session (its
 * subscriptions are made again on every connect), reconnect every second, give up a connect attempt after
 * 10 s, keepalive 30 s. It connects in the background: an unreachable broker is retried. Over TCP to a URL, or
 * in memory to the broker embedded in this process (BrokerEndpoint).
 */
export function linkClient(endpoint: BrokerEndpoint, o: { clientId: string; username: string; password: string; will?: IClientOptions['will'] }): MqttClient {
  const options: IClientOptions = {
    clientId: o.clientId,
    username: o.username,
    password: o.password,
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    keepalive: 30,
    ...(o.will ? { will: o.will } : {}),
  };
  if (typeof endpoint === 'string') return mqtt.connect(endpoint, options);
  // The same MQTT session over an in-memory stream: a new one on every (re)connect.
  return new MqttClient(() => endpoint.connectInProcess(), options);
}

export interface SessionHandlers {
  /** The topics to subscribe to, asked on every connect. */
  topics(): Record<string, { qos: 0 | 1 }>;
  /** A new broker session began (before its subscribe): what belonged to the old one is lost. */
  began?(): void;
  /** The session's subscribe was granted in full. */
  subscribed(): void;
  /** The broker refused a topic, or the subscribe failed while the connection stays in use. */
  refused(err: Error | null, granted: ISubscriptionGrant[] | undefined): void;
}

/**
 * Subscribes on every (re)connect of `client` (clean sessions keep no subscriptions). A subscribe failed
 * because the client itself is being closed (end(), the adapter's stop) is neither granted nor refused:
 * nothing is called and nothing is logged for it.
 */
export function subscribeEachSession(client: MqttClient, on: SessionHandlers): void {
  client.on('connect', () => {
    on.began?.();
    client.subscribe(on.topics(), (err, granted) => {
      if (client.disconnecting || client.disconnected) return;
      if (err || granted?.some((g) => g.qos === 128)) return on.refused(err ?? null, granted);
      on.subscribed();
    });
  });
}

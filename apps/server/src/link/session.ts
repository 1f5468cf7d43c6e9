import mqtt, { type IClientOptions, type ISubscriptionGrant, type MqttClient } from 'mqtt';

/**
 * The MQTT connection of a device-link adapter (nest and DJI): MQTT 3.1.1, a clean session (its
 * subscriptions are made again on every connect), reconnect every second, give up a connect attempt after
 * 10 s, keepalive 30 s. It connects in the background: an unreachable broker is retried.
 */
export function linkClient(url: string, o: { clientId: string; username: string; password: string; will?: IClientOptions['will'] }): MqttClient {
  return mqtt.connect(url, {
    clientId: o.clientId,
    username: o.username,
    password: o.password,
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    keepalive: 30,
    ...(o.will ? { will: o.will } : {}),
  });
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

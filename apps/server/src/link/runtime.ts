import { SERVER_MQTT_USER } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { startEmbeddedBroker, type BrokerHandle, type EmbeddedBroker, type SlowClientEvent } from '../broker/index.js';
import { startBrokerThread } from '../broker/thread.js';
import { ClusterBus, busTopic } from '../push/bus.js';
import type { DeviceLink, DeviceLookup, LinkLogger } from './adapter.js';
import { currentPassword, deviceLoginCheck, devicePassword, loadOrCreateLinkSecrets, type DeviceAccount, type LinkSecrets } from './credentials.js';
import { MosquittoDynsec, type AccessDevices } from './dynsec.js';
import { CompositeLink } from './composite.js';
import { DjiLink, type WaylineStore } from './dji/service.js';
import type { DjiMediaOptions } from './dji/media.js';
import type { LiveIngest } from './dji/live.js';
import type { MediaStore } from '../storage/index.js';
import { LinkService } from './nest/service.js';

/**
 * Where the server (and the in-process simulator) reach the embedded broker: loopback when it listens on
 * every address (MQTT_HOST 0.0.0.0 or ::) or on loopback, else the one address it listens on.
 */
export const embeddedBrokerHost = (listenHost: string): string => (['0.0.0.0', '::', ''].includes(listenHost) ? '127.0.0.1' : listenHost);

/** What the transport needs of the device registry (the devices feature's DeviceDirectory, built by the app). */
export interface LinkRegistry {
  devices: DeviceLookup & AccessDevices;
  /** A registered device as it is now (enabled, deleted, protocol, password generation); asked with every device sign-in. */
  account(sn: string): Promise<DeviceAccount | undefined>;
  /** Internal topics the features listen on (their notices between instances), besides the cluster bus. */
  internalTopics: readonly string[];
  /** DJI docks: where their route packages are kept, and the organisation (company) a device is bound to. */
  dji?: {
    waylines: (WaylineStore & { route(app: FastifyInstance): void }) | null;
    organization?: (sn: string) => Promise<{ id: string; name: string } | null>;
    /** The upload ingest docks put their results into: what storage_config_get answers, and its routes. */
    media?: { options: DjiMediaOptions; route(app: FastifyInstance, store: MediaStore): void } | null;
    /** The RTMP ingest docks publish live video to (videos/rtmp-ingest.ts); null: DJI video reads unavailable. */
    liveIngest?: LiveIngest | null;
  };
}

/** The device transport: secrets, broker, link client and the cluster bus. */
export interface LinkTransport {
  secrets: LinkSecrets;
  /** The embedded broker (in this thread or its own), null with MQTT_URL. */
  broker: BrokerHandle | null;
  /** Where devices (and the in-process simulator) connect. */
  brokerUrl: string;
  /** Not started: the app starts it once every listener is attached. */
  link: DeviceLink;
  /** Notices between server instances (pushes caused on one instance, open sorties). */
  bus: ClusterBus;
  /** Device password for a registered sn. */
  devicePassword(sn: string): string;
  /** Registers the HTTP routes devices use (the DJI route-package download, the dock upload ingest into `store`). */
  deviceRoutes(app: FastifyInstance, store: MediaStore): void;
  close(): Promise<void>;
}

/**
 * Starts the device transport: secrets, embedded broker (unless MQTT_URL), the link client (started by
 * the caller, then connecting in the background) and the cluster bus over it.
 */
/** A host as it stands in a URL (an IPv6 address in brackets). */
const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

export async function startLink(config: Config, registry: LinkRegistry, log: LinkLogger): Promise<LinkTransport> {
  const secrets = await loadOrCreateLinkSecrets(config.dataDir);
  const { devices } = registry;
  let broker: BrokerHandle | null = null;
  // The broker in this thread, reached in memory by the link; null when there is none or it runs in a thread of its own.
  let inThread: EmbeddedBroker | null = null;
  if (!config.mqttUrl) {
    const options = {
      host: config.mqttHost,
      port: config.mqttPort,
      auth: {
        serverPassword: secrets.serverPassword,
        checkDevice: deviceLoginCheck(secrets.deviceKeyHex, registry.account),
      },
      onSlowClient: ({ caughtUp, ...who }: SlowClientEvent) =>
        caughtUp
          ? log.warn(who, 'embedded broker: a client that had stopped reading caught up; it lost the QoS-0 messages (telemetry) counted here')
          : log.warn({ clientId: who.clientId, user: who.user }, 'embedded broker: a client stopped reading; its QoS-0 messages (telemetry) are dropped until it catches up'),
    };
    if (config.mqttBrokerThread) {
      broker = await startBrokerThread({ ...options, onFault: (err) => log.warn({ err: err.message }, 'embedded broker thread: fault') });
    } else {
      broker = inThread = await startEmbeddedBroker(options);
    }
  }
  const brokerUrl = broker ? `mqtt://${urlHost(embeddedBrokerHost(config.mqttHost))}:${broker.port}` : config.mqttUrl!;
  const cluster = broker ? null : config.clusterName;
  const username = broker ? SERVER_MQTT_USER : config.mqttUsername;
  const password = broker ? secrets.serverPassword : (config.mqttPassword ?? secrets.serverPassword);
  // The embedded broker is reached in memory (no TCP to this very process); in its own thread, or external, over its URL.
  const inProcess = inThread ? { inProcess: inThread } : {};
  const nest = new LinkService({
    url: brokerUrl,
    ...inProcess,
    username,
    password,
    devices,
    // How a deleted or disabled device is cut off: the embedded broker closes its connections, an external
    // Mosquitto is told through its dynamic-security plugin.
    access: broker ?? new MosquittoDynsec({ url: brokerUrl, username, password, devices, passwordOf: (row) => currentPassword(secrets.deviceKeyHex, row.sn_id, row), log }),
    log,
    // Other instances exist only behind an external broker: only then is there a cluster to share with.
    cluster,
    internalTopics: [...registry.internalTopics, ...(cluster ? [busTopic(cluster)] : [])],
  });
  // DJI Cloud API devices (protocol 2) on the same broker, through their own adapter; the composite
  // link routes each device to the adapter of its registered protocol.
  const dji = new DjiLink({
    url: brokerUrl,
    ...inProcess,
    username,
    password,
    devices,
    log,
    owns: (sn) => nest.owns(sn),
    clustered: cluster !== null,
    waylines: registry.dji?.waylines ?? null,
    productConfig: {
      ntp_server_host: config.dji.ntpServer,
      app_id: config.dji.appId,
      app_key: config.dji.appKey,
      app_license: config.dji.appLicense,
    },
    ...(registry.dji?.organization ? { organization: registry.dji.organization } : {}),
    media: registry.dji?.media?.options ?? null,
    liveIngest: registry.dji?.liveIngest ?? null,
  });
  const link = new CompositeLink(nest, dji, devices);
  const bus = new ClusterBus(link.clientId);
  if (cluster) {
    const topic = busTopic(cluster);
    bus.connect({ publish: (payload) => link.publishInternal(topic, payload) });
    link.on('internal', (t, payload) => {
      if (t === topic) bus.receive(payload);
    });
  }

  let closed: Promise<void> | null = null;
  return {
    secrets,
    broker,
    brokerUrl,
    link,
    bus,
    devicePassword: (sn) => devicePassword(secrets.deviceKeyHex, sn),
    deviceRoutes: (app, store) => {
      registry.dji?.waylines?.route(app);
      registry.dji?.media?.route(app, store);
    },
    close: () => {
      closed ??= (async () => {
        await link.stop();
        await broker?.close();
      })();
      return closed;
    },
  };
}

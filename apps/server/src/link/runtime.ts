import { RecordState, SERVER_MQTT_USER } from '@nest/contracts';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../broker/index.js';
import { DeviceDirectory } from '../devices/directory.js';
import { CONTROL_NOTICE_TOPIC, DeviceStatusBoard } from '../devices/status.js';
import { findDeviceBySn } from '../devices/store.js';
import { VideoOnDemand, WATCH_NOTICE_TOPIC } from '../videos/live.js';
import { ClusterBus, busTopic } from '../push/bus.js';
import { devicePassword, loadOrCreateLinkSecrets, samePassword, type LinkSecrets } from './credentials.js';
import { LinkService, type LinkLogger } from './service.js';

/** The embedded broker only listens on loopback: devices reach it through the server host. */
export const EMBEDDED_BROKER_HOST = '127.0.0.1';

/** Everything live about devices: broker, link, status (online/offline/held) and video on demand. */
export interface LiveRuntime {
  secrets: LinkSecrets;
  directory: DeviceDirectory;
  /** The embedded broker, null with MQTT_URL. */
  broker: EmbeddedBroker | null;
  /** Where devices (and the in-process simulator) connect. */
  brokerUrl: string;
  link: LinkService;
  status: DeviceStatusBoard;
  video: VideoOnDemand;
  /** Notices between server instances (pushes caused on one instance, open sorties). */
  bus: ClusterBus;
  /** Device password for a registered sn. */
  devicePassword(sn: string): string;
  close(): Promise<void>;
}

/**
 * Starts the device side: secrets, device directory, embedded broker (unless MQTT_URL), the link client
 * (connecting in the background), the status board and video on demand.
 */
export async function startLive(config: Config, db: Database, log: LinkLogger): Promise<LiveRuntime> {
  const secrets = await loadOrCreateLinkSecrets(config.dataDir);
  const directory = new DeviceDirectory(db);
  await directory.start();
  let broker: EmbeddedBroker | null = null;
  try {
    if (!config.mqttUrl) {
      broker = await startEmbeddedBroker({
        host: EMBEDDED_BROKER_HOST,
        port: config.mqttPort,
        auth: {
          serverPassword: secrets.serverPassword,
          checkDevice: async (sn, password) => {
            const expected = devicePassword(secrets.deviceKeyHex, sn);
            const row = await findDeviceBySn(db, sn);
            const ok = samePassword(password, expected);
            return ok && row !== undefined && Number(row.enabled) === 1 && Number(row.state) === RecordState.NORMAL;
          },
        },
      });
    }
  } catch (err) {
    directory.stop();
    throw err;
  }
  const brokerUrl = broker ? `mqtt://${EMBEDDED_BROKER_HOST}:${broker.port}` : config.mqttUrl!;
  const cluster = broker ? null : config.clusterName;
  const link = new LinkService({
    url: brokerUrl,
    username: broker ? SERVER_MQTT_USER : config.mqttUsername,
    password: broker ? secrets.serverPassword : (config.mqttPassword ?? secrets.serverPassword),
    devices: directory,
    log,
    // Other instances exist only behind an external broker: only then is there a cluster to share with.
    cluster,
    internalTopics: [`${CONTROL_NOTICE_TOPIC}/+`, `${WATCH_NOTICE_TOPIC}/+`, ...(cluster ? [busTopic(cluster)] : [])],
  });
  const bus = new ClusterBus(link.clientId);
  if (cluster) {
    const topic = busTopic(cluster);
    bus.connect({ publish: (payload) => link.publishInternal(topic, payload) });
    link.on('internal', (t, payload) => {
      if (t === topic) bus.receive(payload);
    });
  }
  const status = new DeviceStatusBoard(db, link, config.deviceHoldSeconds);
  await status.start();
  const video = new VideoOnDemand(link, log, config.videoIdleStopMs);
  // A device deleted or disabled reads as offline at once.
  directory.onChange((changed) => {
    for (const sn of changed) {
      const row = directory.get(sn);
      if (!row || Number(row.enabled) !== 1) link.forget(sn);
    }
  });
  link.start();

  let closed: Promise<void> | null = null;
  return {
    secrets,
    directory,
    broker,
    brokerUrl,
    link,
    status,
    video,
    bus,
    devicePassword: (sn) => devicePassword(secrets.deviceKeyHex, sn),
    close: () => {
      closed ??= (async () => {
        video.stop();
        status.stop();
        directory.stop();
        await link.stop();
        await broker?.close();
      })();
      return closed;
    },
  };
}

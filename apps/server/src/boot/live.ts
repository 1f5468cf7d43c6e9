import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { CONTROL_NOTICE_TOPIC, DeviceDirectory, DeviceStatusBoard, findDeviceBySn } from '../devices/index.js';
import type { LiveRuntime } from '../deps.js';
import { PortInUseError } from '../broker/index.js';
import { startLink } from '../link/runtime.js';
import { WaylineFiles } from '../link/dji/waylines.js';
import { DockUploadIngest } from '../storage/ingest/mount.js';
import type { LinkLogger } from '../link/adapter.js';
import { findFfmpeg } from '@nest/ffmpeg';
import { RtmpIngest, RtmpSlots, VideoOnDemand, WATCH_LIST_TOPIC, WATCH_NOTICE_TOPIC } from '../videos/index.js';

/**
 * Starts the device side: the device directory, the transport (link/runtime.ts: broker unless MQTT_URL,
 * link client, cluster bus), the status board (online/offline/held) and video on demand; then the link
 * connects in the background.
 */
export async function startLive(config: Config, db: Database, log: LinkLogger): Promise<LiveRuntime> {
  const directory = new DeviceDirectory(db);
  await directory.start();
  // DJI docks upload their results themselves into this S3-compatible ingest (storage/ingest/).
  const ingest = new DockUploadIngest(config.deviceHttpBase);
  // DJI docks publish live video over RTMP (RTMP_PORT) with a per-stream key; it becomes HLS in LIVE_DIR.
  let slots: RtmpSlots | null = null;
  const ffmpeg = findFfmpeg();
  const rtmp = new RtmpIngest({
    accepts: (streamPath, key) => slots?.accepts(streamPath, key) ?? null,
    liveDir: config.liveDir,
    host: config.rtmpHost,
    port: config.rtmpPort,
    ffmpeg,
    log,
  });
  let rtmpPort: number;
  try {
    rtmpPort = await rtmp.start();
  } catch (err) {
    directory.stop();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(config.rtmpPort, config.rtmpHost, 'RTMP_PORT');
    throw err;
  }
  slots = new RtmpSlots({
    publishBase: config.deviceRtmpUrl ?? `rtmp://127.0.0.1:${rtmpPort}`,
    liveUrlBase: config.liveUrlBase,
    onClose: (sn) => rtmp.drop(sn),
  });
  let transport;
  try {
    transport = await startLink(
      config,
      {
        devices: directory,
        account: (sn) => findDeviceBySn(db, sn),
        internalTopics: [`${CONTROL_NOTICE_TOPIC}/+`, `${WATCH_NOTICE_TOPIC}/+`, WATCH_LIST_TOPIC],
        dji: {
          waylines: new WaylineFiles(config.dataDir, db, config.deviceHttpBase),
          media: {
            options: { endpoint: () => ingest.endpoint(), bucket: ingest.bucket, region: ingest.region, issuer: ingest.credentials },
            route: (app, store) => ingest.route(app, store),
          },
          // Without ffmpeg no stream can become HLS: docks are not asked to publish, and the console's
          // video answers "unavailable" at once instead of waiting for a playlist that never comes.
          liveIngest: ffmpeg ? slots : null,
          // A DJI device is bound to the company it is registered in (organisation = company).
          organization: async (sn) => {
            const row = directory.get(sn);
            if (!row) return null;
            const company = await db.selectFrom('companies').select(['id', 'name']).where('id', '=', row.company_id).executeTakeFirst();
            return company ? { id: company.id, name: company.name } : null;
          },
        },
      },
      log,
    );
  } catch (err) {
    directory.stop();
    await rtmp.stop();
    throw err;
  }
  const { link } = transport;
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
  // A device whose broker account changed elsewhere (new DJI credentials from the CLI) is logged out of the
  // embedded broker; an external Mosquitto's access (link/dynsec.ts) does so itself.
  directory.onAccountChange((changed) => {
    for (const sn of changed) void transport.broker?.disconnect(sn);
  });
  // A registry change made through one instance reaches every instance's directory at once (cluster bus).
  directory.shareChangesWith(() => transport.bus.share('devices', {}));
  transport.bus.on('devices', () => void directory.reload().catch(() => undefined));
  link.start();

  let closed: Promise<void> | null = null;
  return {
    ...transport,
    rtmpPort,
    directory,
    status,
    video,
    close: () => {
      closed ??= (async () => {
        video.stop();
        status.stop();
        directory.stop();
        await rtmp.stop();
        await transport.close();
      })();
      return closed;
    },
  };
}

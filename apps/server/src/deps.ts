import type { Config } from './config.js';
import type { Database, DatabaseKind } from './db/index.js';
import type { ServerKeys } from './auth/keys.js';
import type { SessionPolicy } from './auth/sessions.js';
import type { DeviceDirectory } from './devices/directory.js';
import type { DeviceStatusBoard } from './devices/status.js';
import type { LinkTransport } from './link/runtime.js';
import type { DataChanges } from './push/changes.js';
import type { MediaStore } from './storage/store.js';
import type { VideoOnDemand } from './videos/live.js';

/**
 * Everything live about devices: the transport (broker, link, cluster bus; link/runtime.ts) and what the
 * composition root builds over it (boot/live.ts): the device directory, the status board
 * (online/offline/held) and video on demand.
 */
export interface LiveRuntime extends LinkTransport {
  directory: DeviceDirectory;
  status: DeviceStatusBoard;
  video: VideoOnDemand;
}

/** What the feature modules share; built once by buildApp. */
export interface AppDeps {
  config: Config;
  db: Database;
  dbKind: DatabaseKind;
  keys: ServerKeys;
  sessions: SessionPolicy;
  /** Devices live: broker, link, status, video on demand. */
  live: LiveRuntime;
  /** Notices that a company's sorties / results / alarms / tasks changed (push 380). */
  changes: DataChanges;
  /** Finished media files: local DATA_DIR or an S3 bucket (storage/). */
  media: MediaStore;
}

export const sessionPolicyOf = (config: Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours'>): SessionPolicy => ({
  idleSeconds: config.sessionIdleMinutes * 60,
  maxSeconds: config.sessionMaxHours * 3600,
});

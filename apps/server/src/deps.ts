import type { Config } from './config.js';
import type { Database, DatabaseKind } from './db/index.js';
import type { KeyObject } from 'node:crypto';
import type { PublicKeyName } from '@nest/contracts';
import type { LinkTransport } from './link/runtime.js';
import type { DataChanges } from './push/changes.js';
import type { MediaStore } from './storage/store.js';

/**
 * Everything live about devices: the transport (broker, link, cluster bus; link/runtime.ts) and what the
 * composition root builds over it (boot/live.ts). The features that provide those parts declare them here
 * (module augmentation, as Fastify decorators do): devices/index.ts the directory and the status board,
 * videos/index.ts video on demand.
 */
export interface LiveRuntime extends LinkTransport {
  /** The port the RTMP ingest for DJI docks' live video listens on (RTMP_PORT, resolved when 0). */
  rtmpPort: number;
}

/** A server key pair (keys.ts in auth/ loads or creates them in DATA_DIR/keys). */
export interface KeyPair {
  privateKey: KeyObject;
  /** base64 DER SPKI, what contracts `sealWithPublicKey` imports. */
  publicSpki: string;
}
export type ServerKeys = Record<PublicKeyName, KeyPair>;

/** Session limits (auth/sessions.ts): idle and absolute, in seconds. */
export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
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

/**
 * Server configuration, read from environment variables. Every variable the server understands is listed
 * here; an invalid value stops start-up with a one-line message naming the variable (ConfigError).
 *
 * | Variable             | Default                        | Meaning |
 * |----------------------|--------------------------------|---------|
 * | PORT                 | 8080                           | HTTP port (1-65535; 0 picks a free port, for tests). |
 * | HOST                 | 127.0.0.1                      | HTTP listen address (0.0.0.0 to listen on every interface). |
 * | DATA_DIR             | ./data                         | Data directory, created if missing: `nest.sqlite` (SQLite database), `keys/` (RSA key pairs, `device.key` from which device broker passwords derive, `mqtt-server.secret` the server's broker password; all 0600), `media/` (uploaded media, recordings; served at /media/), `live/` (default LIVE_DIR), `tmp/` (uploads in flight). Relative paths are resolved from the working directory. |
 * | DATABASE_URL         | (unset)                        | `postgres://user:pass@host:port/db` (or `postgresql://`) selects PostgreSQL; when unset the SQLite file `DATA_DIR/nest.sqlite` is used. |
 * | MQTT_URL             | (unset)                        | External MQTT broker (`mqtt://`, `mqtts://`, `ws://`, `wss://`); it must enforce the device ACL itself (docs/device-protocol.md, `cli.ts mosquitto-files`). When unset an embedded broker (aedes) listens on 127.0.0.1:MQTT_PORT and enforces it. |
 * | CLUSTER_NAME         | nest (with MQTT_URL)           | With an external broker, the server instances of one deployment find each other on `nest-server/v1/cluster/<name>/` and split the devices among them: each device's events are handled, in order, by exactly one live instance (rendezvous hashing on the serial number), and pushes caused on one instance reach the browsers of all. Every instance of a deployment uses the same name. `off`: this instance handles every device's events (a single instance). Ignored with the embedded broker (always one instance). |
 * | MQTT_PORT            | 1883                           | Port of the embedded broker (ignored when MQTT_URL is set; 0 picks a free port). |
 * | MQTT_BROKER_THREAD   | on                             | on: the embedded broker runs in a worker thread of its own (the devices' connections and the broker's routing off the server's event loop; the server reaches it over loopback TCP, as an external broker); off: in the server's own thread, reached in memory. Ignored when MQTT_URL is set. |
 * | MQTT_USERNAME        | nest-server                    | The server's own user name at the broker (external broker; the embedded one always uses nest-server). |
 * | MQTT_PASSWORD        | (generated)                    | The server's own broker password. When unset: the content of DATA_DIR/keys/mqtt-server.secret (generated on first start); give that user and password to the external broker (`cli.ts mosquitto-files` writes its dynamic-security configuration with them; docs/device-protocol.md). |
 * | SIMULATOR            | on                             | on: the launcher (npm start) registers demo devices (company wk) and runs a simulated fleet in the server process (the server started alone says it has none); off: real devices only. |
 * | SIM_CENTER           | 22.5431,114.0579               | Centre of the simulated fleet, "lat,lng" in WGS84 decimal degrees (default: Shenzhen Civic Center). |
 * | SIM_NESTS            | 3                              | Number of simulated nests (0-200). |
 * | SIM_DRONES           | 2                              | Number of simulated single-soldier drones (0-200). |
 * | SIM_RATE_HZ          | 1                              | Telemetry rate of the simulated devices, 0.5 to 10 Hz. |
 * | SIM_TIME_SCALE       | 1                              | Speed of simulated time (0.1 to 100; 10 = flights, charging and batteries run ten times faster). Telemetry keeps SIM_RATE_HZ. |
 * | SIM_WEATHER          | varied                         | varied: simulated wind changes and light showers now and then (an approach may divert to the alternate point); calm: fair weather only (faults still apply), for rehearsals and tests that need a nest landing. |
 * | DEMO_MISSIONS        | on when SIMULATOR is on        | on: the server flies the demo patrol route on an idle simulated nest about a minute after start, then every DEMO_MISSION_MINUTES on the next idle nest. Needs SIMULATOR=on. (With the simulator each nest gets a demo fence and routes on the first start either way.) |
 * | DEMO_MISSION_MINUTES | 20                             | Minutes between demo missions (5 to 1440). |
 * | LIVE_DIR             | DATA_DIR/live                  | Directory of live video (HLS: <sn>/index.m3u8 and segments), served at /live/. |
 * | LIVE_URL_BASE        | /live                          | Base of the live video URLs given to browsers: <LIVE_URL_BASE>/<sn>/index.m3u8 (a path on this server or an absolute http(s) URL of a media server). |
 * | RTMP_PORT            | 1935                           | Port of the RTMP ingest DJI docks publish their live video to (0 picks a free port, for tests). |
 * | RTMP_HOST            | 127.0.0.1                      | Address the RTMP ingest listens on (`0.0.0.0` lets real DJI docks in; then also set DEVICE_RTMP_URL to the address they use). |
 * | DEVICE_RTMP_URL      | rtmp://127.0.0.1:<RTMP_PORT>   | The RTMP base address DJI docks are told to publish to (`rtmp://host:port`, no trailing slash); each stream gets `/live/<sn>?key=<key>` appended. |
 * | BASE_USER            | /api/user                      | Base path of the user service calls (contracts DEFAULT_SERVICE_BASES). |
 * | BASE_DEVICE          | /api/device                    | Base path of the device service calls. |
 * | BASE_ZONE            | /api/zone                      | Base path of the map (zone) service calls. |
 * | BASE_MT              | /api/mt                        | Base path of the separate-URL (mt) calls. |
 * | BASE_VIDEO           | /api/video                     | Base path of the video service calls. |
 * | ADMIN_ACCOUNT        | admin@nest.local               | Account (phone or e-mail) of the first super administrator, created on first start only. |
 * | ADMIN_PASSWORD       | (generated)                    | Its password (PASSWORD_MIN..PASSWORD_MAX characters). When unset a strong password is generated and printed once, on the start that creates the account. |
 * | SESSION_IDLE_MINUTES | 120                            | A session ends after this many minutes without a call. |
 * | SESSION_MAX_HOURS    | 12 (contracts TOKEN_COOKIE_HOURS) | Absolute session lifetime in hours, whatever the activity. |
 * | UPLOAD_MAX_MB        | 200                            | Largest file accepted in a multipart call, in MiB (form fields are limited to 64 KiB each). |
 * | FIRMWARE_MAX_MB      | 512 (contracts FIRMWARE_MAX_BYTES) | Largest firmware package /rom/add accepts, in MiB (replaces UPLOAD_MAX_MB for that call). |
 * | MAP_PACKAGE_MAX_MB   | 1024 (contracts MAP_PACKAGE_MAX_BYTES) | Largest offline map package /map/packageAdd accepts, in MiB (replaces UPLOAD_MAX_MB for that call). |
 * | TEACHING_VIDEO_MAX_MB | 1024 (contracts TEACHING_VIDEO_MAX_BYTES) | Largest teaching video /teach/add accepts, in MiB (replaces UPLOAD_MAX_MB for that call). |
 * | UPLOADS_PER_USER     | 2                              | File uploads (multipart calls: /rom/add, /teach/add) one user may have in progress at once on this instance (1-100); one more answers UPLOAD_BUSY (HTTP 429) before any byte of its file is read. |
 * | UPLOADS_AT_ONCE      | 6                              | File uploads in progress at once on this instance, all users together (1-1000); one more answers UPLOAD_BUSY. Together with the size limits above it bounds what DATA_DIR/tmp can hold. |
 * | MEDIA_STORE          | local                          | Where finished media live (results, thumbnails, recordings, firmware packages, teaching videos, nest logs): `local` = under DATA_DIR (media/, firmware/, teaching/, device-logs/); `s3` = an S3-compatible bucket (needed when several instances serve media). Uploads in progress stay in DATA_DIR/tmp either way. |
 * | S3_ENDPOINT          | (AWS)                          | With MEDIA_STORE=s3: the http(s) URL of an S3-compatible server (MinIO, Ceph, OSS...), no path; unset for AWS S3. |
 * | S3_REGION            | us-east-1                      | With MEDIA_STORE=s3: the bucket's region. |
 * | S3_BUCKET            | (required with s3)             | With MEDIA_STORE=s3: the bucket (it must exist). |
 * | S3_PREFIX            | (none)                         | With MEDIA_STORE=s3: key prefix inside the bucket (e.g. `nest/prod`), so deployments can share a bucket. |
 * | S3_ACCESS_KEY_ID     | (SDK default chain)            | With MEDIA_STORE=s3: access key; set together with S3_SECRET_ACCESS_KEY, or neither to use the SDK's default credentials (environment, instance role). |
 * | S3_SECRET_ACCESS_KEY | (SDK default chain)            | With MEDIA_STORE=s3: secret key. |
 * | S3_FORCE_PATH_STYLE  | true with S3_ENDPOINT, else false | With MEDIA_STORE=s3: `true` for path-style URLs (host/bucket/key), which most self-hosted servers need. Any S3_* setting without MEDIA_STORE=s3 stops start-up. |
 * | TRUST_PROXY          | false                          | `true` when behind a reverse proxy / load balancer: the client address (used by sign-in throttling and the audit log) is then the last X-Forwarded-For entry, the one that proxy appended (one trusted hop). Unset behind a proxy, every client has the proxy's address (sign-in throttling then locks everyone out together): the server logs a warning, once, at the first request carrying X-Forwarded-For, Forwarded or X-Real-IP (docs/deployment.md). |
 * | WEB_DIST             | apps/web/dist                  | Directory of the built web app, served under /nest/. Relative paths are resolved from the working directory; the default is found relative to this file. |
 * | LOG_LEVEL            | info                           | fatal, error, warn, info, debug, trace or silent. |
 * | CHECK_ANSWERS        | on with NODE_ENV development or test | on: every successful call answer is checked against the call's contracts answer schema; a mismatch is logged and answered SERVER_ERROR (tests and `npm run dev:server` turn it on). |
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_SERVICE_BASES,
  DEVICE_HOLD_SECONDS,
  FIRMWARE_MAX_BYTES,
  MAP_PACKAGE_MAX_BYTES,
  TEACHING_VIDEO_MAX_BYTES,
  MAX_TELEMETRY_HZ,
  MIN_TELEMETRY_HZ,
  PASSWORD_MAX,
  SERVER_MQTT_USER,
  PASSWORD_MIN,
  SERVICES,
  TOKEN_COOKIE_HOURS,
  isAccount,
  type Service,
} from '@nest/contracts';
import { ConfigError } from './config-error.js';
import { mediaStoreConfig, type MediaStoreConfig } from './storage/config.js';

const MIB = 1024 * 1024;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** scrypt cost of new password hashes (OWASP: N=2^17, r=8, p=1). The cost is stored in each hash. */
export interface ScryptCost {
  logN: number;
  r: number;
  p: number;
}
export const DEFAULT_SCRYPT_COST: ScryptCost = { logN: 17, r: 8, p: 1 };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL, or null for the SQLite file in dataDir. */
  databaseUrl: string | null;
  mqttUrl: string | null;
  /** Name of the cluster of instances sharing the external broker, or null: one instance handles everything. */
  clusterName: string | null;
  mqttPort: number;
  /** MQTT_BROKER_THREAD: the embedded broker in a worker thread of its own (broker/thread.ts). */
  mqttBrokerThread: boolean;
  /**
   * MQTT_HOST: the address the embedded broker listens on; default loopback (only the server and the
   * in-process simulator). `0.0.0.0` lets devices on the network in (real DJI docks: docs/dji.md).
   */
  mqttHost: string;
  /** The server's own broker login (external broker). */
  mqttUsername: string;
  /** null: DATA_DIR/keys/mqtt-server.secret. */
  mqttPassword: string | null;
  simulator: boolean;
  simCenter: { lat: number; lng: number };
  simNests: number;
  simDrones: number;
  /** SIM_DJI_DOCKS: emulated DJI Dock 2s (with an M3D each) speaking the DJI Cloud API in the demo fleet. */
  simDjiDocks: number;
  simRateHz: number;
  /** Simulated time runs this many times faster than real time. */
  simTimeScale: number;
  /** SIM_WEATHER: calm keeps the simulated nests in fair weather (no showers, light wind). */
  simWeather: 'varied' | 'calm';
  /** Demo routes and periodic demo missions on the simulated nests (only with simulator). */
  demoMissions: boolean;
  demoMissionMinutes: number;
  liveDir: string;
  liveUrlBase: string;
  /**
   * DEVICE_MQTT_URL: the broker address devices that are set up by hand (DJI docks) are told to use; null:
   * mqtt://127.0.0.1:<the broker's port> (MQTT_URL's when set).
   */
  deviceMqttUrl: string | null;
  /** RTMP_PORT: port of the RTMP ingest DJI docks publish live video to (0: a free port). */
  rtmpPort: number;
  /** RTMP_HOST: the address the RTMP ingest listens on; default loopback. */
  rtmpHost: string;
  /** DEVICE_RTMP_URL: the RTMP base docks publish to; null: rtmp://127.0.0.1:<the ingest's port>. */
  deviceRtmpUrl: string | null;
  /**
   * DEVICE_HTTP_BASE: the HTTP base devices download from (route files of DJI docks); null:
   * http://127.0.0.1:<the port the server listens on>.
   */
  deviceHttpBase: string | null;
  /**
   * What DJI docks are told when they ask for their product configuration (`config` request): the NTP
   * server they keep their clock by (DJI_NTP_SERVER; without a synchronised clock a dock refuses missions)
   * and the DJI developer app they run under (DJI_APP_ID, DJI_APP_KEY, DJI_APP_LICENSE; empty when unset).
   */
  dji: { ntpServer: string; appId: string; appKey: string; appLicense: string };
  /** Not an environment variable: how long a /device/connect hold lasts without renewal (tests lower it). */
  deviceHoldSeconds: number;
  /** Not an environment variable: video stops this long after its last watcher left. */
  videoIdleStopMs: number;
  bases: Record<Service, string>;
  adminAccount: string;
  /** null: generate one on first start. */
  adminPassword: string | null;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  uploadMaxBytes: number;
  /** Per-call file limits of the firmware and teaching-video uploads (bytes). */
  firmwareMaxBytes: number;
  teachingVideoMaxBytes: number;
  /** MAP_PACKAGE_MAX_MB: the file limit of /map/packageAdd (bytes). */
  mapPackageMaxBytes: number;
  /** UPLOADS_PER_USER / UPLOADS_AT_ONCE: file uploads in progress at once on this instance, per user and in all. */
  uploadsPerUser: number;
  uploadsAtOnce: number;
  trustProxy: boolean;
  /** MEDIA_STORE and S3_* (storage/config.ts). */
  mediaStore: MediaStoreConfig;
  webDist: string;
  logLevel: LogLevel;
  /**
   * Check every successful call answer against its registry schema and answer a server error on a mismatch
   * (CHECK_ANSWERS on/off; default on when NODE_ENV is development or test, off otherwise).
   */
  checkAnswers: boolean;
  /** Not an environment variable: tests lower it to keep runs fast. */
  scrypt: ScryptCost;
}

export { ConfigError };

export const DEFAULT_ADMIN_ACCOUNT = 'admin@nest.local';
/**
 * File uploads in progress at once (UPLOADS_PER_USER, UPLOADS_AT_ONCE): two per user lets a manager send a
 * firmware package and a teaching video side by side; six in all, at the default 1 GiB teaching-video limit,
 * keeps DATA_DIR/tmp under 6 GiB.
 */
export const DEFAULT_UPLOADS_PER_USER = 2;
export const DEFAULT_UPLOADS_AT_ONCE = 6;
const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/src -> apps/web/dist */
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

const BASE_ENV: Record<Service, string> = {
  user: 'BASE_USER',
  device: 'BASE_DEVICE',
  zone: 'BASE_ZONE',
  mt: 'BASE_MT',
  video: 'BASE_VIDEO',
};

type Env = Readonly<Record<string, string | undefined>>;

function value(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function integer(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return def;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function basePath(env: Env, service: Service): string {
  const name = BASE_ENV[service];
  const raw = value(env, name) ?? DEFAULT_SERVICE_BASES[service];
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) {
    throw new ConfigError(`${name} must be a path like /api/${service} (segments of letters, digits, . _ ~ -; no trailing slash) (got "${raw}")`);
  }
  return raw;
}

function decimal(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return def;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function onOff(env: Env, name: string, def: boolean): boolean {
  const raw = (value(env, name) ?? (def ? 'on' : 'off')).toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off (got "${raw}")`);
}

function simWeatherOf(env: Env): 'varied' | 'calm' {
  const raw = (value(env, 'SIM_WEATHER') ?? 'varied').toLowerCase();
  if (raw === 'varied' || raw === 'calm') return raw;
  throw new ConfigError(`SIM_WEATHER must be varied or calm (got "${raw}")`);
}

export const DEFAULT_SIM_CENTER = { lat: 22.5431, lng: 114.0579 };

function latLng(env: Env, name: string, def: { lat: number; lng: number }): { lat: number; lng: number } {
  const raw = value(env, name);
  if (raw === undefined) return def;
  const m = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/.exec(raw);
  const lat = m ? Number(m[1]) : NaN;
  const lng = m ? Number(m[2]) : NaN;
  if (!m || lat < -85 || lat > 85 || lng < -180 || lng > 180) {
    throw new ConfigError(`${name} must be "lat,lng" in decimal degrees, e.g. 22.5431,114.0579 (got "${raw}")`);
  }
  return { lat, lng };
}

/** A host name or address (no scheme, path or spaces). */
function hostName(env: Env, name: string, fallback: string): string {
  const raw = value(env, name) ?? fallback;
  if (!/^[A-Za-z0-9.:[\]-]{1,253}$/.test(raw)) throw new ConfigError(`${name} must be a host name or address, e.g. ntp.example.com (got "${raw}")`);
  return raw;
}

/** An absolute URL of one of the given schemes, without a trailing slash (DEVICE_MQTT_URL, DEVICE_HTTP_BASE, DEVICE_RTMP_URL). */
function deviceUrl(env: Env, name: string, schemes: readonly string[], example: string): string | null {
  const raw = value(env, name);
  if (raw === undefined) return null;
  const u = URL.canParse(raw) ? new URL(raw) : null;
  const ok = u !== null && schemes.includes(u.protocol.replace(/:$/, '')) && u.hostname !== '' && !raw.endsWith('/');
  if (!ok) throw new ConfigError(`${name} must be a ${schemes.join(' or ')} URL without a trailing slash, e.g. ${example} (got "${raw}")`);
  return raw;
}

function liveUrlBase(env: Env): string {
  const raw = value(env, 'LIVE_URL_BASE') ?? '/live';
  const ok = /^(\/[A-Za-z0-9._~-]+)+$/.test(raw) || /^https?:\/\/[^\s/]+(\/[A-Za-z0-9._~-]+)*$/.test(raw);
  if (!ok) throw new ConfigError(`LIVE_URL_BASE must be a path like /live or an http(s) URL, without a trailing slash (got "${raw}")`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const host = value(env, 'HOST') ?? '127.0.0.1';
  if (/\s|\//.test(host)) throw new ConfigError(`HOST must be a host name or address (got "${host}")`);

  const databaseUrl = value(env, 'DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql:// (unset it to use SQLite)');
  }
  if (databaseUrl !== null) {
    try {
      new URL(databaseUrl);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid URL');
    }
  }
  const mqttUrl = value(env, 'MQTT_URL') ?? null;
  if (mqttUrl !== null && !/^(mqtts?|wss?):\/\/[^\s]+$/.test(mqttUrl)) {
    throw new ConfigError(`MQTT_URL must start with mqtt://, mqtts://, ws:// or wss:// (got "${mqttUrl}")`);
  }

  const bases = Object.fromEntries(SERVICES.map((s) => [s, basePath(env, s)])) as Record<Service, string>;
  const seen = new Map<string, Service>();
  for (const s of SERVICES) {
    const other = seen.get(bases[s]);
    if (other) throw new ConfigError(`${BASE_ENV[s]} and ${BASE_ENV[other]} must differ (both "${bases[s]}")`);
    seen.set(bases[s], s);
    if (bases[s] === '/nest' || bases[s].startsWith('/nest/') || bases[s] === '/api/static' || bases[s] === '/api/push') {
      throw new ConfigError(`${BASE_ENV[s]} must not be /nest, /api/static or /api/push (got "${bases[s]}")`);
    }
  }

  const adminAccount = value(env, 'ADMIN_ACCOUNT') ?? DEFAULT_ADMIN_ACCOUNT;
  if (!isAccount(adminAccount)) {
    throw new ConfigError(`ADMIN_ACCOUNT must be a mainland mobile number or an e-mail address (got "${adminAccount}")`);
  }
  const adminPassword = env.ADMIN_PASSWORD === undefined || env.ADMIN_PASSWORD === '' ? null : env.ADMIN_PASSWORD;
  if (adminPassword !== null) {
    const n = [...adminPassword].length;
    if (n < PASSWORD_MIN || n > PASSWORD_MAX) {
      throw new ConfigError(`ADMIN_PASSWORD must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters (got ${n})`);
    }
  }

  const trustRaw = (value(env, 'TRUST_PROXY') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(trustRaw)) {
    throw new ConfigError(`TRUST_PROXY must be true or false (got "${trustRaw}")`);
  }

  const logLevel = (value(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const mqttUsername = value(env, 'MQTT_USERNAME') ?? SERVER_MQTT_USER;
  if (/[\s#+/]/.test(mqttUsername) || mqttUsername.length > 64) {
    throw new ConfigError(`MQTT_USERNAME must be a user name without spaces, / # or + (got "${mqttUsername}")`);
  }

  const simulator = onOff(env, 'SIMULATOR', true);
  const demoMissions = onOff(env, 'DEMO_MISSIONS', simulator);
  if (demoMissions && !simulator) throw new ConfigError('DEMO_MISSIONS=on needs SIMULATOR=on (demo missions fly the simulated nests)');

  const webDistRaw = value(env, 'WEB_DIST');
  const dataDir = path.resolve(value(env, 'DATA_DIR') ?? './data');
  const liveDirRaw = value(env, 'LIVE_DIR');
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host,
    dataDir,
    databaseUrl,
    mqttUrl,
    clusterName: clusterNameOf(env, mqttUrl),
    mqttPort: integer(env, 'MQTT_PORT', 1883, 0, 65535),
    mqttBrokerThread: onOff(env, 'MQTT_BROKER_THREAD', true),
    mqttHost: hostName(env, 'MQTT_HOST', '127.0.0.1'),
    mqttUsername,
    mqttPassword: env.MQTT_PASSWORD === undefined || env.MQTT_PASSWORD === '' ? null : env.MQTT_PASSWORD,
    simulator,
    simCenter: latLng(env, 'SIM_CENTER', DEFAULT_SIM_CENTER),
    simNests: integer(env, 'SIM_NESTS', 3, 0, 200),
    simDrones: integer(env, 'SIM_DRONES', 2, 0, 200),
    simDjiDocks: integer(env, 'SIM_DJI_DOCKS', 1, 0, 20),
    simRateHz: decimal(env, 'SIM_RATE_HZ', 1, MIN_TELEMETRY_HZ, MAX_TELEMETRY_HZ),
    simTimeScale: decimal(env, 'SIM_TIME_SCALE', 1, 0.1, 100),
    simWeather: simWeatherOf(env),
    demoMissions,
    demoMissionMinutes: integer(env, 'DEMO_MISSION_MINUTES', 20, 5, 1440),
    liveDir: liveDirRaw === undefined ? path.join(dataDir, 'live') : path.resolve(liveDirRaw),
    liveUrlBase: liveUrlBase(env),
    deviceMqttUrl: deviceUrl(env, 'DEVICE_MQTT_URL', ['mqtt', 'mqtts', 'tcp', 'ssl', 'ws', 'wss'], 'tcp://192.168.1.10:1883'),
    deviceHttpBase: deviceUrl(env, 'DEVICE_HTTP_BASE', ['http', 'https'], 'http://192.168.1.10:8080'),
    rtmpPort: integer(env, 'RTMP_PORT', 1935, 0, 65535),
    rtmpHost: hostName(env, 'RTMP_HOST', '127.0.0.1'),
    deviceRtmpUrl: deviceUrl(env, 'DEVICE_RTMP_URL', ['rtmp'], 'rtmp://192.168.1.10:1935'),
    dji: {
      ntpServer: hostName(env, 'DJI_NTP_SERVER', 'pool.ntp.org'),
      appId: value(env, 'DJI_APP_ID') ?? '',
      appKey: value(env, 'DJI_APP_KEY') ?? '',
      appLicense: value(env, 'DJI_APP_LICENSE') ?? '',
    },
    deviceHoldSeconds: DEVICE_HOLD_SECONDS,
    videoIdleStopMs: 60_000,
    bases,
    adminAccount,
    adminPassword,
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 120, 1, 60 * 24 * 30),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', TOKEN_COOKIE_HOURS, 1, 24 * 365),
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_MB', 200, 1, 100_000) * 1024 * 1024,
    firmwareMaxBytes: integer(env, 'FIRMWARE_MAX_MB', FIRMWARE_MAX_BYTES / MIB, 1, 100_000) * MIB,
    teachingVideoMaxBytes: integer(env, 'TEACHING_VIDEO_MAX_MB', TEACHING_VIDEO_MAX_BYTES / MIB, 1, 100_000) * MIB,
    mapPackageMaxBytes: integer(env, 'MAP_PACKAGE_MAX_MB', MAP_PACKAGE_MAX_BYTES / MIB, 1, 100_000) * MIB,
    uploadsPerUser: integer(env, 'UPLOADS_PER_USER', DEFAULT_UPLOADS_PER_USER, 1, 100),
    uploadsAtOnce: integer(env, 'UPLOADS_AT_ONCE', DEFAULT_UPLOADS_AT_ONCE, 1, 1000),
    trustProxy: trustRaw === 'true' || trustRaw === '1',
    mediaStore: mediaStoreConfig(env),
    webDist: webDistRaw === undefined ? DEFAULT_WEB_DIST : path.resolve(webDistRaw),
    logLevel: logLevel as LogLevel,
    checkAnswers: onOff(env, 'CHECK_ANSWERS', env.NODE_ENV === 'development' || env.NODE_ENV === 'test'),
    scrypt: DEFAULT_SCRYPT_COST,
  };
}

/** True when the built web app is present. */
export const webAppBuilt = (config: Pick<Config, 'webDist'>): boolean =>
  existsSync(path.join(config.webDist, 'index.html'));

/** CLUSTER_NAME: one topic level without wildcards or separators; `off` or no external broker: none. */
function clusterNameOf(env: Env, mqttUrl: string | null): string | null {
  const raw = value(env, 'CLUSTER_NAME');
  if (mqttUrl === null || raw === 'off') return null;
  const name = raw ?? 'nest';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new ConfigError(`CLUSTER_NAME must be 1-64 letters, digits, '-' or '_', or off (got "${name}")`);
  }
  return name;
}

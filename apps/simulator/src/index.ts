import { createHmac } from 'node:crypto';
import { DEFAULT_TELEMETRY_HZ, SERVER_CLIENT_ID_PREFIX, demoText, isDeviceSn, isSn } from '@nest/contracts';
import type { DeviceTypeKeyValue, TelemetryData } from '@nest/contracts';
import { SimDevice, clampRate } from './device.js';
import type { SimDeviceSpec } from './device.js';
import { offsetMetres } from '@nest/geo';
import type { Fault } from './model.js';
import { createRng, hashString } from './rng.js';
import { createMediaPipeline } from './media/pipeline.js';
import type { MediaPipeline } from './media/pipeline.js';
import { createVideoManager } from './video.js';
import type { VideoManager } from './video.js';

/**
 * Public API of the fleet simulator: simulated nests and single-soldier drones, each its own MQTT client,
 * speaking the device link of `@nest/contracts` (device-link.ts). See docs/simulator.md.
 */
export type DeviceKindKey = DeviceTypeKeyValue;
export type { SimDeviceSpec, StateSnapshot, StateMessageData } from './device.js';
export type { Fault } from './model.js';
export { FAULTS, isFault, MODEL } from './model.js';
export { DeviceModel } from './deviceModel.js';
export { RESULT, FIRMWARE, validateOutgoing, EVENT_RESEND_MS, EVENT_FAST_SENDS, EVENT_RESEND_MAX_MS, EVENT_GIVE_UP_MS, eventResendDelay } from './device.js';
export { FlightOps, OPS } from './ops.js';
export type { MediaRequest, OpsEvent, Refusal } from './ops.js';
export { STEP_SECONDS, STEP_TIP, flowProgress } from './flows.js';
export { missionProgress, waypointHeight, waypointSpeed } from './mission.js';
export { CameraModel, TIMED_MAX_PHOTOS, VIDEO_MAX_SECONDS } from './camera.js';
export { makePhoto, makePanorama, PHOTO_SIZE, PANORAMA_SIZE } from './media/images.js';
export type { PhotoOptions } from './media/images.js';
export { makeVideo, clipSeconds } from './media/video.js';
export type { VideoProblem, VideoProblemReason } from './video.js';
export { readExif, withExif } from './media/exif.js';
export { renderMedia, createMediaPipeline } from './media/pipeline.js';
export { uploadMedia, UploadQueue, UploadRejected, UPLOAD_CHUNK_BYTES } from './upload.js';
export type { UploadMediaOptions, UploadResult } from './upload.js';
export { startDjiDock } from './dji/dock.js';
export type { DjiDock, DjiDockEvents, DjiDockOptions, HmsItem, HmsOptions, ProgressSent, ReceivedCommand } from './dji/dock.js';
export { djiPublishAllowed, djiSubscribeAllowed, djiTopic } from './dji/protocol.js';

export interface FleetOptions {
  brokerUrl: string;
  devices: SimDeviceSpec[];
  /** Telemetry rate, default 1 Hz, kept within 0.5..10. */
  rateHz?: number;
  /** Where HLS goes (`<liveDir>/<sn>/index.m3u8`); video is off when absent. */
  liveDir?: string;
  /** ffmpeg binary; null disables video; default: FFMPEG_PATH, else `ffmpeg` on PATH, else the packaged one (ffmpeg.ts). */
  ffmpegPath?: string | null;
  /** URL prefix the server serves liveDir at; default '/live'. */
  liveUrlBase?: string;
  log?: (line: string) => void;
  seed?: number;
  /** Validate outgoing messages against the contracts schemas; default: on unless NODE_ENV=production. */
  validate?: boolean;
  /** Called on every online / offline change of a device's MQTT link. */
  onPresence?: (sn: string, online: boolean) => void;
  /** The models advance dt * timeScale per real second (default 1; tests use 10-30). */
  timeScale?: number;
  /** Server base URL for media uploads (e.g. http://127.0.0.1:8080); absent: media are not uploaded. */
  mediaUrl?: string;
}

export interface SimulatedDeviceView {
  sn: string;
  kind: DeviceKindKey;
  online: boolean;
  telemetry(): TelemetryData;
}

export interface Fleet {
  devices(): SimulatedDeviceView[];
  inject(sn: string, fault: Fault): void;
  clear(sn: string, fault?: Fault): void;
  setRate(hz: number): void;
  stop(): Promise<void>;
}

/** Device password derived from a shared secret: HMAC-SHA256(secret, sn) as hex. The server's broker uses it too. */
export function devicePassword(secret: string, sn: string): string {
  return createHmac('sha256', secret).update(sn).digest('hex');
}

/** Starts every device; resolves once all have connected (rejects, stopping all, if one cannot). */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  const log = opts.log ?? (() => {});
  const seen = new Set<string>();
  for (const d of opts.devices) {
    if (!isDeviceSn(d.sn) || d.sn.startsWith(SERVER_CLIENT_ID_PREFIX) || !isSn(d.uavSn)) throw new Error(`not a device serial number: ${d.sn} / ${d.uavSn}`);
    if (seen.has(d.sn)) throw new Error(`duplicate device sn: ${d.sn}`);
    seen.add(d.sn);
  }
  const bySn = new Map<string, SimDevice>();
  const video: VideoManager | null = opts.liveDir
    ? createVideoManager({ liveDir: opts.liveDir, ffmpegPath: opts.ffmpegPath, log, onGiveUp: (sn) => bySn.get(sn)?.videoGivenUp() })
    : null;
  const media: MediaPipeline | null = opts.mediaUrl ? createMediaPipeline({ mediaUrl: opts.mediaUrl, ffmpegPath: opts.ffmpegPath, log }) : null;
  const devices = opts.devices.map(
    (spec) =>
      new SimDevice(spec, {
        brokerUrl: opts.brokerUrl,
        rateHz: opts.rateHz ?? DEFAULT_TELEMETRY_HZ,
        seed: opts.seed ?? 1,
        log,
        validate: opts.validate ?? process.env.NODE_ENV !== 'production',
        video,
        liveUrlBase: opts.liveUrlBase ?? '/live',
        onPresence: opts.onPresence,
        timeScale: opts.timeScale ?? 1,
        onMedia: media ? (d, m) => media.submit({ sn: d.sn, password: d.spec.password }, m) : undefined,
        httpBase: opts.mediaUrl ?? null,
      }),
  );
  for (const d of devices) bySn.set(d.sn, d);
  const get = (sn: string): SimDevice => {
    const d = bySn.get(sn);
    if (!d) throw new Error(`unknown device: ${sn}`);
    return d;
  };
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    media?.stop();
    await Promise.all(devices.map((d) => d.stop()));
    await video?.stopAll();
  };
  const results = await Promise.allSettled(devices.map((d) => d.connect()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
  }
  return {
    devices: () =>
      devices.map((d) => ({ sn: d.sn, kind: d.spec.kind, online: d.online, telemetry: () => d.telemetry() })),
    inject: (sn, fault) => get(sn).inject(fault),
    clear: (sn, fault) => get(sn).clear(fault),
    setRate: (hz) => {
      const r = clampRate(hz);
      for (const d of devices) d.setRate(r);
    },
    stop,
  };
}

/** Names are contracts demo texts (stored in Chinese, shown by the server in the viewer's language). */
const NEST_CYCLE = [
  { kind: 'stable', code: 'STABLE', name: 'device.nest', letter: 'A' },
  { kind: 'stable_mini', code: 'MINI', name: 'device.miniNest', letter: 'B' },
  { kind: 'mobile', code: 'MOBILE', name: 'device.mobileNest', letter: 'C' },
] as const;

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * A deterministic demo fleet: `nests` nests cycling stable, stable_mini, mobile (SIM-STABLE-01,
 * SIM-MINI-01, SIM-MOBILE-01, ...) and `drones` single-soldier drones (SIM-ALONE-01, ...), placed 1-8 km
 * around `center`. Passwords are added by the caller (see `devicePassword`).
 */
export function demoFleet(
  center: { lat: number; lng: number },
  counts: { nests: number; drones: number },
  prefix = 'SIM',
): Omit<SimDeviceSpec, 'password'>[] {
  const rng = createRng(hashString(`${prefix}:${center.lat.toFixed(4)},${center.lng.toFixed(4)}`));
  const out: Omit<SimDeviceSpec, 'password'>[] = [];
  const perKind = new Map<string, number>();
  const total = Math.max(0, counts.nests) + Math.max(0, counts.drones);
  const place = (i: number): { lat: number; lng: number; alt: number } => {
    // Golden-angle spiral with jitter: spread out, never on top of each other, 1-8 km from the centre.
    const angle = (i * 137.508 + rng.range(-10, 10)) * (Math.PI / 180);
    const r = 1_000 + 7_000 * ((i + 0.5) / Math.max(1, total)) * rng.range(0.85, 1);
    const p = offsetMetres(center, r * Math.cos(angle), r * Math.sin(angle));
    return { lat: Number(p.lat.toFixed(6)), lng: Number(p.lng.toFixed(6)), alt: Math.round(rng.range(15, 90)) };
  };
  let i = 0;
  for (let n = 0; n < counts.nests; n++, i++) {
    const c = NEST_CYCLE[n % NEST_CYCLE.length]!;
    const k = (perKind.get(c.kind) ?? 0) + 1;
    perKind.set(c.kind, k);
    const sn = `${prefix}-${c.code}-${two(k)}`;
    out.push({ sn, kind: c.kind, name: demoText(c.name, { label: `${c.letter}${two(k)}` }), uavSn: `${sn}-UAV`, home: place(i) });
  }
  for (let n = 1; n <= counts.drones; n++, i++) {
    const sn = `${prefix}-ALONE-${two(n)}`;
    out.push({ sn, kind: 'alone', name: demoText('device.soldier', { label: `D${two(n)}` }), uavSn: sn, home: place(i) });
  }
  return out;
}

import { DEFAULT_CAMERA_SETTINGS } from '@nest/contracts';
import type { CameraSettings, CameraSettingsPatch } from '@nest/contracts';

/**
 * The drone's payload camera, pure: settings, gimbal, zoom, recording and the picture-mode schedule.
 * `step(dt)` answers how many photos the shutter fired during dt; the owner turns them into media.
 */

/** A timed sequence stops by itself after this many photos (or at the next photo command). */
export const TIMED_MAX_PHOTOS = 10;
/** Recorded clips are cut to this length when rendered (the file, not the recording time reported). */
export const VIDEO_MAX_SECONDS = 20;

export class CameraModel {
  settings: CameraSettings = { ...DEFAULT_CAMERA_SETTINGS };
  gimbalPitch = 0;
  gimbalYaw = 0;
  /** Seconds recorded so far, null when not recording. */
  recording: number | null = null;
  private timed: { left: number; taken: number } | null = null;
  private delayLeft: number | null = null;

  apply(patch: CameraSettingsPatch): void {
    this.settings = { ...this.settings, ...patch } as CameraSettings;
  }

  setGimbal(g: { pitch?: number; yaw?: number; reset?: boolean }): void {
    if (g.reset) {
      this.gimbalPitch = 0;
      this.gimbalYaw = 0;
    }
    if (g.pitch !== undefined) this.gimbalPitch = g.pitch;
    if (g.yaw !== undefined) this.gimbalYaw = g.yaw;
  }

  /** The shutter command per picture mode; answers the photos taken right now. */
  shoot(): number {
    const s = this.settings;
    // Any photo command ends a running timed sequence (and a pending delayed photo).
    const wasTimed = this.timed !== null;
    this.timed = null;
    this.delayLeft = null;
    switch (s.picture_mode) {
      case 2:
        return s.burst_count;
      case 3:
        if (wasTimed) return 0;
        this.timed = { left: s.timed_interval, taken: 1 };
        return 1;
      case 4:
        this.delayLeft = s.delay_seconds;
        return 0;
      default:
        return 1;
    }
  }

  startRecording(): void {
    this.recording ??= 0;
  }

  /** Stops recording; answers the seconds recorded (0 when it was not recording). */
  stopRecording(): number {
    const secs = this.recording ?? 0;
    this.recording = null;
    return secs;
  }

  /** Photos fired by the timed / delayed modes during dt. */
  step(dt: number): number {
    let photos = 0;
    if (this.recording !== null) this.recording += dt;
    if (this.delayLeft !== null) {
      this.delayLeft -= dt;
      if (this.delayLeft <= 1e-9) {
        this.delayLeft = null;
        photos += 1;
      }
    }
    if (this.timed) {
      this.timed.left -= dt;
      while (this.timed && this.timed.left <= 1e-9) {
        photos += 1;
        this.timed.taken += 1;
        this.timed.left += this.settings.timed_interval;
        if (this.timed.taken >= TIMED_MAX_PHOTOS) this.timed = null;
      }
    }
    return photos;
  }
}

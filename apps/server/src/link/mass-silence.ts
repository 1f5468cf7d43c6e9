/**
 * A mass silence: at least this many online devices, and at least this share of them, silent in one
 * presence judgement. A handful of devices leaving together is judged as usual.
 */
export const MASS_SILENCE_MIN = 8;
export const MASS_SILENCE_SHARE = 0.25;
/** How long a mass silence is held before it is declared (a minute: longer than a device's keepalive). */
export const MASS_SILENCE_HOLD_MS = 60_000;

/**
 * Whether a presence judgement is held back (both device-link adapters). Many devices falling silent
 * together, with their connections open (no last-will), is the path failing rather than the devices: a
 * broker that dropped messages to this instance because it read them too slowly (Mosquitto drops QoS 0
 * beyond its queue limit, so the presence probe can come back while the devices' telemetry did not), or a
 * server too slow to read. Such silence is not declared for MASS_SILENCE_HOLD_MS: the devices keep their
 * state, the judgement is made again with the next probe, and a device that really left still goes
 * offline: by its last-will (the broker sees its connection end), or once the devices around it are heard
 * again and it alone is silent, or when the hold is over.
 */
export class MassSilence {
  /** Since when (clock ms) judgements have found a mass silence; null while they do not. */
  private since: number | null = null;

  /** `silent` of `online` devices are past their deadline at a judgement made at `now`: hold it? */
  hold(silent: number, online: number, now: number): boolean {
    if (silent < MASS_SILENCE_MIN || silent < online * MASS_SILENCE_SHARE) {
      this.since = null;
      return false;
    }
    this.since ??= now;
    if (now - this.since >= MASS_SILENCE_HOLD_MS) {
      this.since = null;
      return false;
    }
    return true;
  }

  /** When the current mass silence began (clock ms), null when none. */
  get began(): number | null {
    return this.since;
  }
}

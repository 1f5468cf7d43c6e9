import { useSyncExternalStore } from 'react';
import type { LatLng } from './basemaps';

/** What the map draws for the selected device's flight: its route, the track flown while watched, where it is. */
export interface FlightOverlay {
  sn: string | null;
  route: LatLng[];
  track: LatLng[];
  position: LatLng | null;
}

const EMPTY: FlightOverlay = { sn: null, route: [], track: [], position: null };
/** Longest track kept (points): about an hour at 1 Hz; older points are dropped first. */
export const TRACK_MAX_POINTS = 4000;
/** A new track point only after this much movement (m), so hovering does not pile up points. */
const TRACK_MIN_STEP_M = 1;

let overlay: FlightOverlay = EMPTY;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Metres between two points (equirectangular: fine at track-step distances). */
function metres(a: LatLng, b: LatLng): number {
  const k = Math.PI / 180;
  const x = (b.lng - a.lng) * k * Math.cos(((a.lat + b.lat) / 2) * k);
  const y = (b.lat - a.lat) * k;
  return Math.hypot(x, y) * 6_371_000;
}

/** Starts (or clears, with null) the overlay for a device. */
export function resetOverlay(sn: string | null): void {
  overlay = { ...EMPTY, sn };
  emit();
}

export function setOverlayRoute(sn: string, route: LatLng[]): void {
  if (overlay.sn !== sn) return;
  overlay = { ...overlay, route };
  emit();
}

/** A telemetry position; `flying` adds it to the track. */
export function addOverlayPosition(sn: string, p: LatLng, flying: boolean): void {
  if (overlay.sn !== sn) return;
  const last = overlay.track.at(-1);
  const track = flying && (!last || metres(last, p) >= TRACK_MIN_STEP_M) ? [...overlay.track, p].slice(-TRACK_MAX_POINTS) : overlay.track;
  overlay = { ...overlay, track, position: p };
  emit();
}

export const getOverlay = (): FlightOverlay => overlay;

export function useFlightOverlay(): FlightOverlay {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getOverlay,
    getOverlay,
  );
}

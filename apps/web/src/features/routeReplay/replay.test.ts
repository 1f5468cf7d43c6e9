import { haversineDistance as haversine } from '@nest/geo';
import { describe, expect, it } from 'vitest';
import {
  advance,
  boundsOf,
  clampSeek,
  clampSpeed,
  cumulativeDistances,
  indexAt,
  interpolateHeading,
  normalizeDegrees,
  photoTime,
  playbackSpan,
  sampleAt,
  screenRotation,
  trackDuration,
  type TrackPoint,
} from './replay';

const pt = (t: number, lat: number, lng: number, extra: Partial<TrackPoint> = {}): TrackPoint => ({
  t,
  lat,
  lng,
  alt: 0,
  height: 0,
  speed: 0,
  heading: 0,
  battery: 100,
  flight_state: 2,
  ...extra,
});

// 0.001° of latitude is about 111.2 m.
const track: TrackPoint[] = [
  pt(1_000, 30, 120, { height: 0, speed: 0, heading: 350, battery: 100, flight_state: 1 }),
  pt(11_000, 30.001, 120, { height: 50, speed: 10, heading: 10, battery: 90, flight_state: 2 }),
  pt(21_000, 30.002, 120, { height: 100, speed: 20, heading: 90, battery: 80, flight_state: 2 }),
];

describe('distances', () => {
  it('haversine measures about 111 m per 0.001° of latitude', () => {
    expect(haversine({ lat: 30, lng: 120 }, { lat: 30.001, lng: 120 })).toBeCloseTo(111.19, 1);
    expect(haversine({ lat: 30, lng: 120 }, { lat: 30, lng: 120 })).toBe(0);
  });

  it('cumulative distances start at 0 and add each leg', () => {
    const c = cumulativeDistances(track);
    expect(c).toHaveLength(3);
    expect(c[0]).toBe(0);
    expect(c[1]).toBeCloseTo(111.19, 1);
    expect(c[2]).toBeCloseTo(222.39, 1);
    expect(cumulativeDistances([])).toEqual([]);
  });
});

describe('heading', () => {
  it('turns the short way round through north', () => {
    expect(interpolateHeading(350, 10, 0.5)).toBeCloseTo(0, 6);
    expect(interpolateHeading(350, 10, 0.25)).toBeCloseTo(355, 6);
    expect(interpolateHeading(10, 350, 0.75)).toBeCloseTo(355, 6);
    expect(interpolateHeading(0, 90, 0.5)).toBeCloseTo(45, 6);
  });

  it('normalises any angle into [0, 360)', () => {
    expect(normalizeDegrees(-90)).toBe(270);
    expect(normalizeDegrees(720)).toBe(0);
    expect(normalizeDegrees(Number.NaN)).toBe(0);
    expect(interpolateHeading(-10, 370, 1)).toBeCloseTo(10, 6);
  });

  it('screen rotation subtracts the map bearing', () => {
    expect(screenRotation(90, 0)).toBe(90);
    expect(screenRotation(10, 30)).toBe(340);
  });
});

describe('sampleAt', () => {
  const cum = cumulativeDistances(track);

  it('interpolates position, telemetry and distance between samples', () => {
    const s = sampleAt(track, cum, 6_000)!;
    expect(s.lat).toBeCloseTo(30.0005, 9);
    expect(s.lng).toBe(120);
    expect(s.height).toBeCloseTo(25, 9);
    expect(s.speed).toBeCloseTo(5, 9);
    expect(s.battery).toBeCloseTo(95, 9);
    expect(s.heading).toBeCloseTo(0, 6);
    expect(s.distance).toBeCloseTo(cum[1]! / 2, 6);
    expect(s.index).toBe(0);
    expect(s.flightState).toBe(1);
  });

  it('answers the sample itself at its time and keeps its flight state', () => {
    const s = sampleAt(track, cum, 11_000)!;
    expect(s.lat).toBeCloseTo(30.001, 9);
    expect(s.index).toBe(1);
    expect(s.flightState).toBe(2);
    expect(s.distance).toBeCloseTo(cum[1]!, 6);
  });

  it('clamps before the start and after the end', () => {
    expect(sampleAt(track, cum, -5)!.lat).toBe(30);
    expect(sampleAt(track, cum, -5)!.distance).toBe(0);
    const end = sampleAt(track, cum, 99_999)!;
    expect(end.lat).toBe(30.002);
    expect(end.index).toBe(2);
    expect(end.distance).toBeCloseTo(cum[2]!, 6);
  });

  it('handles empty, single-sample and duplicate-time tracks', () => {
    expect(sampleAt([], [], 0)).toBeNull();
    const one = [pt(5, 1, 2)];
    expect(sampleAt(one, [0], 100)).toMatchObject({ lat: 1, lng: 2, index: 0, distance: 0 });
    const dup = [pt(5, 1, 2), pt(5, 1.1, 2)];
    expect(sampleAt(dup, cumulativeDistances(dup), 5)!.lat).toBeCloseTo(1.1, 9);
  });

  it('indexAt finds the sample at or before a time', () => {
    expect(indexAt(track, 0)).toBe(0);
    expect(indexAt(track, 10_999)).toBe(0);
    expect(indexAt(track, 11_000)).toBe(1);
    expect(indexAt(track, 50_000)).toBe(2);
    expect(indexAt([], 3)).toBe(-1);
  });
});

describe('photoTime', () => {
  it('uses taken_at when it falls inside the track', () => {
    expect(photoTime(track, { lat: 0, lng: 0, taken_at: 12_345 })).toBe(12_345);
  });

  it('falls back to the time of the nearest sample by position', () => {
    expect(photoTime(track, { lat: 30.00195, lng: 120, taken_at: 999_999 })).toBe(21_000);
    expect(photoTime(track, { lat: 30.0009, lng: 120.00001, taken_at: 0 })).toBe(11_000);
    expect(photoTime([], { lat: 30, lng: 120, taken_at: 5 })).toBeNull();
  });
});

describe('clamps and playback', () => {
  it('clamps seeking into the track', () => {
    expect(clampSeek(-10, 20_000)).toBe(0);
    expect(clampSeek(25_000, 20_000)).toBe(20_000);
    expect(clampSeek(Number.NaN, 20_000)).toBe(0);
    expect(clampSeek(7_000, 20_000)).toBe(7_000);
  });

  it('accepts only the offered speeds', () => {
    expect(clampSpeed(4)).toBe(4);
    expect(clampSpeed('16')).toBe(16);
    expect(clampSpeed(3)).toBe(1);
    expect(clampSpeed('fast')).toBe(1);
  });

  it('advances by real time times speed and stops at the end', () => {
    expect(advance(0, 100, 8, 20_000)).toEqual({ elapsed: 800, playing: true });
    expect(advance(19_900, 100, 16, 20_000)).toEqual({ elapsed: 20_000, playing: false });
    // A long gap (background tab) is capped at 1 s of real time.
    expect(advance(0, 10_000, 1, 20_000).elapsed).toBe(1_000);
    expect(advance(100, -5, 1, 20_000).elapsed).toBe(100);
  });

  it('measures the duration and bounds of a track', () => {
    expect(trackDuration(track)).toBe(20_000);
    expect(trackDuration([pt(1, 0, 0)])).toBe(0);
    expect(boundsOf([[120, 30], [121, 29], [119.5, 30.5]])).toEqual([[119.5, 29], [121, 30.5]]);
    expect(boundsOf([])).toBeNull();
  });

  it('plays a landed sortie from takeoff to landing, so the timeline and the header duration agree', () => {
    // Samples logged 3 s before takeoff and 4 s after landing do not lengthen the timeline.
    const logged = [pt(97_000, 0, 0), pt(100_000, 0, 0), pt(509_000, 0, 0), pt(513_000, 0, 0)];
    expect(playbackSpan(logged, { start_time: 100, end_time: 509 })).toEqual({ t0: 100_000, total: 409_000 });
    // In flight (no end yet) or without recorded times: the track itself.
    expect(playbackSpan(logged, { start_time: 100, end_time: 0 })).toEqual({ t0: 97_000, total: 416_000 });
    expect(playbackSpan(logged, { start_time: 0, end_time: null })).toEqual({ t0: 97_000, total: 416_000 });
    expect(playbackSpan([], { start_time: 100, end_time: 0 })).toEqual({ t0: 0, total: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { MAP_DOWNLOAD_MAX_TILES, tileCount, type MapDownload } from '@nest/contracts';
import { EMPTY_BOX, boxOfCorners, boxRing, estimate, formatBox, formatCount, mergeJob, progressPercent, validBox } from './area';

const SZ = { min_lat: 22.4, min_lng: 113.8, max_lat: 22.7, max_lng: 114.2 };

const job = (over: Partial<MapDownload> = {}): MapDownload => ({
  id: 'j1',
  name: 'Shenzhen',
  ...SZ,
  min_zoom: 0,
  max_zoom: 10,
  total: 18,
  done: 0,
  state: 'waiting',
  error: '',
  u_id: 'u',
  company_id: 'wk',
  create_time: 100,
  modified_time: 100,
  ...over,
});

describe('area', () => {
  it('accepts only a complete box with min below max inside Web Mercator', () => {
    expect(validBox(EMPTY_BOX)).toBeNull();
    expect(validBox({ ...SZ, min_lat: null })).toBeNull();
    expect(validBox({ ...SZ, min_lat: 23 })).toBeNull();
    expect(validBox({ ...SZ, max_lat: 89 })).toBeNull();
    expect(validBox({ ...SZ, max_lng: 181 })).toBeNull();
    expect(validBox(SZ)).toEqual(SZ);
  });

  it('builds a box from two corners in any order, rounded and clamped', () => {
    expect(boxOfCorners({ lat: 22.7, lng: 114.2 }, { lat: 22.4, lng: 113.8 })).toEqual(SZ);
    expect(boxOfCorners({ lat: 22.1234567, lng: 1 }, { lat: 89, lng: 200 })).toEqual({ min_lat: 22.123457, max_lat: 85.051129, min_lng: 1, max_lng: 180 });
  });

  it('estimates the same tile count the server computes, and flags the limit', () => {
    expect(estimate(null, 0, 10)).toBeNull();
    expect(estimate(SZ, 0, 10)).toEqual({ count: 18, overLimit: false });
    expect(estimate(SZ, 6, 10)!.count).toBe(tileCount(SZ, 6, 10));
    // A reversed slider range counts the same zooms.
    expect(estimate(SZ, 10, 6)!.count).toBe(tileCount(SZ, 6, 10));
    const world = { min_lat: -80, min_lng: -179, max_lat: 80, max_lng: 179 };
    const e = estimate(world, 0, 10)!;
    expect(e.count).toBeGreaterThan(MAP_DOWNLOAD_MAX_TILES);
    expect(e.overLimit).toBe(true);
  });

  it('formats counts, boxes and progress', () => {
    expect(formatCount(31536, 'en')).toBe('31,536');
    expect(formatCount(31536, 'zh')).toBe('31,536');
    expect(formatBox(SZ)).toBe('22.4000, 113.8000 – 22.7000, 114.2000');
    expect(progressPercent(job({ done: 9 }))).toBe(50);
    expect(progressPercent(job({ done: 18, state: 'running' }))).toBe(99);
    expect(progressPercent(job({ done: 18, state: 'done' }))).toBe(100);
    expect(progressPercent(job({ total: 0 }))).toBe(0);
  });

  it('outlines a box as a closed ring', () => {
    const ring = boxRing(SZ);
    expect(ring).toHaveLength(5);
    expect(ring[0]).toEqual(ring[4]);
    expect(ring[2]).toEqual([114.2, 22.7]);
  });

  it('merges pushed jobs: new on top, newer progress replaces, older frames ignored', () => {
    const list = [job()];
    expect(mergeJob(list, job({ id: 'j2' })).map((j) => j.id)).toEqual(['j2', 'j1']);
    const running = mergeJob(list, job({ state: 'running', done: 5, modified_time: 101 }));
    expect(running[0]).toMatchObject({ state: 'running', done: 5 });
    expect(mergeJob(running, job({ state: 'running', done: 3, modified_time: 101 }))[0]!.done).toBe(5);
    expect(mergeJob(running, job({ state: 'waiting', done: 0, modified_time: 100 }))[0]!.state).toBe('running');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NEUTRAL_STICKS, VIRTUAL_UP_INTERVAL_MS, type Sticks } from '@nest/contracts';
import { KEY_DEFLECTION, StickSender, keySticks, padSticks } from './sticks';

describe('virtual stick frames', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends one frame per VIRTUAL_UP_INTERVAL_MS while running, with the current sticks', () => {
    const frames: Sticks[] = [];
    const s = new StickSender((f) => frames.push(f));
    s.start();
    vi.advanceTimersByTime(VIRTUAL_UP_INTERVAL_MS - 1);
    expect(frames).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(frames).toEqual([NEUTRAL_STICKS]);
    s.set({ pitch: 1800 });
    vi.advanceTimersByTime(VIRTUAL_UP_INTERVAL_MS * 4);
    expect(frames).toHaveLength(5);
    expect(frames[4]).toEqual({ ...NEUTRAL_STICKS, pitch: 1800 });
    s.start(); // starting twice keeps one cadence
    vi.advanceTimersByTime(VIRTUAL_UP_INTERVAL_MS);
    expect(frames).toHaveLength(6);
  });

  it('stop (blur, hidden tab, disconnect) sends neutral at once and nothing after', () => {
    const frames: Sticks[] = [];
    const s = new StickSender((f) => frames.push(f));
    s.start();
    s.set({ roll: 2000, throttle: 1000 });
    vi.advanceTimersByTime(VIRTUAL_UP_INTERVAL_MS);
    expect(frames.at(-1)).toEqual({ ...NEUTRAL_STICKS, roll: 2000, throttle: 1000 });
    s.stop();
    expect(frames.at(-1)).toEqual(NEUTRAL_STICKS);
    const n = frames.length;
    vi.advanceTimersByTime(VIRTUAL_UP_INTERVAL_MS * 10);
    expect(frames).toHaveLength(n);
    expect(s.running).toBe(false);
  });

  it('values are clamped to 1000..2000', () => {
    const s = new StickSender(() => undefined);
    s.set({ yaw: 2600, pitch: 100 });
    expect(s.current).toEqual({ ...NEUTRAL_STICKS, yaw: 2000, pitch: 1000 });
  });

  it('keyboard: W/S pitch, A/D roll, arrows throttle and yaw', () => {
    expect(keySticks(new Set(['KeyW', 'KeyA', 'ArrowUp', 'ArrowRight']))).toEqual({
      pitch: 1500 + KEY_DEFLECTION,
      roll: 1500 - KEY_DEFLECTION,
      throttle: 1500 + KEY_DEFLECTION,
      yaw: 1500 + KEY_DEFLECTION,
    });
    expect(keySticks(new Set(['KeyW', 'KeyS']))).toEqual({});
    expect(padSticks(1, -1)).toEqual([2000, 1000]);
    expect(padSticks(0, 0.5)).toEqual([1500, 1750]);
  });
});

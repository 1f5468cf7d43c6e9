import { describe, expect, it } from 'vitest';
import { TILE_FAIL_THRESHOLD, TILE_TIMEOUT_MS, tileHealth } from './tileHealth';

describe('tile health', () => {
  it('is loading until a tile loads, enough fail, or the wait runs out', () => {
    expect(tileHealth({ loaded: 0, failed: 0, elapsedMs: 0 })).toBe('loading');
    expect(tileHealth({ loaded: 0, failed: TILE_FAIL_THRESHOLD - 1, elapsedMs: 1000 })).toBe('loading');
    expect(tileHealth({ loaded: 0, failed: TILE_FAIL_THRESHOLD, elapsedMs: 1000 })).toBe('unreachable');
    // A firewall that drops packets: nothing fails, nothing loads.
    expect(tileHealth({ loaded: 0, failed: 0, elapsedMs: TILE_TIMEOUT_MS })).toBe('unreachable');
    // One tile loaded: reachable, whatever else failed.
    expect(tileHealth({ loaded: 1, failed: 10, elapsedMs: TILE_TIMEOUT_MS * 2 })).toBe('ok');
  });
});

import { describe, expect, it } from 'vitest';
import { HEADER_HEIGHT, MESSAGE_PLACEMENT, NOTIFICATION_PLACEMENT } from './placement';

describe('toast placement', () => {
  it('puts messages below the header, never over its navigation, three at most', () => {
    expect(Number(MESSAGE_PLACEMENT.top)).toBeGreaterThan(HEADER_HEIGHT);
    expect(MESSAGE_PLACEMENT.maxCount).toBe(3);
  });

  it('keeps alarm notices off the top-right toolbars (the route editor\'s Save) and off the header', () => {
    expect(NOTIFICATION_PLACEMENT.placement).toBe('bottomRight');
    expect(NOTIFICATION_PLACEMENT.maxCount).toBe(3);
  });
});

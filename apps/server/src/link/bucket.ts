/** A token bucket: tokens left and when they were last counted (ms). */
export interface TokenBucket {
  tokens: number;
  at: number;
}

/**
 * The bucket (a new, full one when there is none) refilled at `perSecond` up to `burst` for the time since
 * it was last counted. Callers take a token (`tokens -= 1`) when they let something through.
 */
export function refill(bucket: TokenBucket | undefined, now: number, perSecond: number, burst: number): TokenBucket {
  const b = bucket ?? { tokens: burst, at: now };
  b.tokens = Math.min(burst, b.tokens + ((now - b.at) * perSecond) / 1000);
  b.at = now;
  return b;
}

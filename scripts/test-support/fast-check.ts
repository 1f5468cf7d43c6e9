/**
 * One fast-check seed for the whole test run (a `setupFiles` entry of every vitest project).
 *
 * vitest.config.ts fixes FC_SEED before any worker starts: the fixed default, so CI draws the same cases every
 * time; a number given in FC_SEED repeats that run's cases; `FC_SEED=random` draws a new seed. The seed is
 * printed at the start of the run, and fast-check names it (with the path to the shrunk case) in every failure.
 */
import fc from 'fast-check';
import { NIGHTLY } from './fuzz.js';

const seed = Number(process.env.FC_SEED);
if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer (vitest.config.ts sets it), got ${process.env.FC_SEED}`);

fc.configureGlobal({ seed, ...(NIGHTLY ? { numRuns: 1000 } : {}) });

import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { PERMANENT_END_TIME } from '@nest/contracts';
import { validityTimes } from './UserDialog';

describe('user validity', () => {
  it('is permanent from the given start, or the chosen range in seconds', () => {
    expect(validityTimes({ validity: 'permanent', range: null }, 1000)).toEqual({ start_time: 1000, end_time: PERMANENT_END_TIME });
    const from = dayjs.unix(1_800_000_000);
    const to = dayjs.unix(1_800_086_400);
    expect(validityTimes({ validity: 'range', range: [from, to] }, 1000)).toEqual({ start_time: 1_800_000_000, end_time: 1_800_086_400 });
    // A range choice without dates falls back to permanent (the form requires the dates before sending).
    expect(validityTimes({ validity: 'range', range: null }, 5)).toEqual({ start_time: 5, end_time: PERMANENT_END_TIME });
  });
});

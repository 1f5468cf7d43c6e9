import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calls, type CallAnswer, type CallName } from './calls.js';

describe('call answers', () => {
  it.each(Object.keys(calls) as CallName[])('%s names the schema of its answer', (name) => {
    expect(calls[name].answer, name).toBeInstanceOf(z.ZodType);
  });

  it('an answer is checked, not coerced: a page needs its list and total', () => {
    expect(calls.deviceList.answer.safeParse({ list: [], total: 0 }).success).toBe(true);
    expect(calls.deviceList.answer.safeParse({ list: [] }).success).toBe(false);
    expect(calls.deviceList.answer.safeParse({ list: [], total: '0' }).success).toBe(false);
  });

  it('calls that answer nothing answer null', () => {
    for (const name of ['logout', 'userPsw', 'resultDeleteOne', 'resultDeleteIds', 'resultDeleteSort', 'sortiesDelete'] as const) {
      expect(calls[name].answer.safeParse(null).success, name).toBe(true);
    }
    const nothing: CallAnswer<'logout'> = null;
    expect(nothing).toBeNull();
  });
});

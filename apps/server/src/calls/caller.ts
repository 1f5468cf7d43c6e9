import { ResultCode } from '@nest/contracts';
import { CallError } from './errors.js';
import type { Caller } from './types.js';

/** The caller of a non-public call (the call layer guarantees it; this keeps the types honest). */
export function callerOf(caller: Caller | null): Caller {
  if (!caller) throw new CallError(ResultCode.LOGIN_EXPIRED);
  return caller;
}

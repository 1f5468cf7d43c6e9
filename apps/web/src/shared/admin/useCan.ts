import { useCallback } from 'react';
import { calls, holds, type CallName } from '@nest/contracts';
import { useUser } from '../session';

/** Whether the signed-in user holds the function a call needs (what a screen checks before offering an action). */
export function useCan(): (name: CallName) => boolean {
  const funList = useUser()?.fun_list;
  return useCallback((name: CallName) => holds(funList, calls[name].access), [funList]);
}

import { HOME_PATH } from '../screens';

/**
 * Path and query the user asked for before being sent to login (SPEC: navigate there after sign-in). The
 * guard hands it to the sign-in screen as the location state; it lives apart from both so that the guard
 * (behind sign-in) and the sign-in screen (which preloads the guard) do not import each other.
 */
export interface LoginState {
  from?: string;
}

/** Where to go after sign-in: the path the guard remembered, else the data screen. */
export function targetAfterLogin(state: unknown): string {
  const from = (state as LoginState | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && from !== '/' ? from : HOME_PATH;
}

import { useSyncExternalStore } from 'react';
import { showTexts, userSchema, type User } from '@nest/contracts';
import { clearToken, saveToken } from './cookie';
import { getLang } from './i18n';
import { KEYS, storage } from './storage';

/**
 * The signed-in user: in memory (state) and saved under `userInfo` (SPEC section 3). The token itself is
 * carried only by the encrypted cookie (see cookie.ts): the saved copy and the in-memory user keep the
 * user's fields with an empty token, so a plain-text copy of the token never reaches local storage.
 */
let user: User | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const getUser = (): User | null => user;

export function setUser(next: User | null, persist = true): void {
  user = next ? { ...next, token: '' } : null;
  if (persist) {
    if (user) storage.setJson(KEYS.userInfo, user);
    else storage.remove(KEYS.userInfo);
  }
  emit();
}

/** The saved copy, validated; a broken copy counts as none. */
export function readSavedUser(): User | null {
  const parsed = userSchema.safeParse(storage.getJson(KEYS.userInfo));
  return parsed.success ? parsed.data : null;
}

/**
 * Restores the user from the saved copy into state (route guard). The copy was answered in the language of
 * the sign-in: a demo nick (contracts demo-texts, e.g. the first administrator's) is shown in today's.
 */
export function restoreUser(): User | null {
  const saved = readSavedUser();
  const shown = saved ? showTexts(saved, getLang()) : null;
  if (shown) setUser(shown, false);
  return shown;
}

export function useUser(): User | null {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getUser,
    getUser,
  );
}

/** After a successful sign-in: token into the encrypted cookie, user into state and local storage. */
export async function signIn(next: User): Promise<void> {
  await saveToken(next.token);
  setUser(next);
}

/** Clears the stored user and the token cookie. */
export function clearSession(): void {
  clearToken();
  setUser(null);
}

// ------------------------------------------------------------------ navigation to login from anywhere

let toLogin: (() => void) | null = null;

/** The router registers how to reach the login route (keeps this module free of router imports). */
export function setLoginNavigator(fn: (() => void) | null): void {
  toLogin = fn;
}

/** Clears the session and goes to login (sign-out, login expiry, password changed). */
export function endSession(): void {
  clearSession();
  if (toLogin) toLogin();
  else if (globalThis.location) globalThis.location.assign('/nest/');
}

import { useSyncExternalStore } from 'react';
import { MENU_PATH, menuItemSchema, type MenuItem } from '@nest/contracts';
import { sortMenu } from './menu';

/** The menu as loaded after sign-in (null until loaded; cleared when entering login). */
let menu: MenuItem[] | null = null;
let pending: Promise<MenuItem[]> | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const getMenu = (): MenuItem[] | null => menu;

export function clearMenu(): void {
  pending = null;
  if (menu !== null) {
    menu = null;
    emit();
  }
}

/** Fetches the static menu with a time-stamp cache-buster, validates and sorts it. */
export async function fetchMenu(): Promise<MenuItem[]> {
  const res = await fetch(`${MENU_PATH}?t=${Date.now()}`, { cache: 'no-store' });
  if (!res.ok) throw new Error(`menu: HTTP ${res.status}`);
  const raw: unknown = await res.json();
  if (!Array.isArray(raw)) throw new Error('menu: not a list');
  return sortMenu(raw.map((entry) => menuItemSchema.parse(entry)));
}

/** Loads the menu once (concurrent callers share the request). */
export function loadMenu(): Promise<MenuItem[]> {
  if (menu) return Promise.resolve(menu);
  if (!pending) {
    const p = fetchMenu().then(
      (items) => {
        if (pending === p) {
          menu = items;
          pending = null;
          emit();
        }
        return items;
      },
      (err: unknown) => {
        if (pending === p) pending = null;
        throw err;
      },
    );
    pending = p;
  }
  return pending;
}

export function useMenu(): MenuItem[] | null {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getMenu,
    getMenu,
  );
}

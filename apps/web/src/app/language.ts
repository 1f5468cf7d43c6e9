import { useSyncExternalStore } from 'react';
import type { Lang } from '@nest/contracts';
import { getLang, saveLang } from '../shared/i18n';

/** Full-screen mask shown while the page reloads in another language. */
let switching = false;
const listeners = new Set<() => void>();

/** SPEC: changing language saves it locally, shows a loading mask and reloads the page. */
export function switchLanguage(lang: Lang, reload: () => void = () => window.location.reload()): void {
  saveLang(lang);
  if (lang === getLang() && !switching) return;
  switching = true;
  listeners.forEach((l) => l());
  // Let the mask paint before the page goes away.
  setTimeout(reload, 150);
}

export function useLanguageSwitching(): boolean {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => switching,
    () => switching,
  );
}

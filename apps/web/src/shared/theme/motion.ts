import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

const media = (): MediaQueryList | null => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null);

/**
 * Whether the system asks for reduced motion (an accessibility setting). antd's zooms and slides are turned
 * off then: dialogs, menus and messages appear at once. It follows a change of the setting while open.
 */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (cb) => {
      const m = media();
      m?.addEventListener('change', cb);
      return () => m?.removeEventListener('change', cb);
    },
    () => media()?.matches ?? false,
    () => false,
  );
}

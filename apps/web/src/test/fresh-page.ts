/**
 * Setup of the web test files that share a worker's modules (vitest.config.ts, project `web`): each file starts
 * as on a freshly opened page, whatever the file before it left behind: empty storage and cookies, an empty
 * body at the site root, the default language (Chinese), real timers and globals.
 */
import { vi } from 'vitest';
import { applyLang } from '../shared/i18n';

localStorage.clear();
sessionStorage.clear();
for (const cookie of document.cookie.split(';')) {
  const name = cookie.split('=')[0]?.trim();
  if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}
document.body.innerHTML = '';
window.history.replaceState(null, '', '/');
applyLang('zh');
vi.useRealTimers();
vi.unstubAllGlobals();
vi.restoreAllMocks();

import { useSyncExternalStore } from 'react';
import type { ThemeConfig } from 'antd/es/config-provider/context';
import darkAlgorithm from 'antd/es/theme/themes/dark';
import defaultAlgorithm from 'antd/es/theme/themes/default';
import { DEFAULT_THEME, THEMES, type Theme } from '@nest/contracts';
import { KEYS, storage } from '../storage';

/** Theme saved under `theme` (SPEC: default or concise; default is default). */
export function readStoredTheme(): Theme {
  const raw = storage.get(KEYS.theme);
  return (THEMES as readonly string[]).includes(raw ?? '') ? (raw as Theme) : DEFAULT_THEME;
}

let current: Theme = readStoredTheme();
const listeners = new Set<() => void>();

export const getTheme = (): Theme => current;
export const themeClass = (theme: Theme): string => `theme-${theme}`;

/** Saves the theme and applies it at once (the app root's class follows through useTheme). */
export function setTheme(next: Theme): void {
  storage.set(KEYS.theme, next);
  if (next === current) return;
  current = next;
  listeners.forEach((l) => l());
}

export { useReducedMotion } from './motion';

/** antd's configuration of a theme, without motion when the system asks for reduced motion. */
export const themeConfig = (theme: Theme, reducedMotion: boolean): ThemeConfig =>
  reducedMotion ? { ...THEME_CONFIG[theme], token: { ...THEME_CONFIG[theme].token, motion: false } } : THEME_CONFIG[theme];

export function useTheme(): Theme {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getTheme,
    getTheme,
  );
}

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'WenQuanYi Micro Hei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif";

/**
 * antd tokens of each theme; the matching CSS variables (header, surfaces, accents of our own components)
 * live in theme.css under `.theme-default` / `.theme-concise`.
 */
export const THEME_CONFIG: Readonly<Record<Theme, ThemeConfig>> = {
  default: {
    algorithm: darkAlgorithm,
    token: {
      colorPrimary: '#18b7f0',
      colorInfo: '#18b7f0',
      colorSuccess: '#2fd08b',
      colorWarning: '#f5a524',
      colorError: '#ff5a5f',
      colorBgBase: '#071224',
      colorBgContainer: '#0c1a31',
      colorBgElevated: '#102443',
      colorBgLayout: '#071224',
      colorBorder: '#1e3a62',
      colorBorderSecondary: '#17304f',
      colorTextBase: '#dbe8ff',
      borderRadius: 6,
      fontFamily: FONT,
    },
    components: {
      Modal: { contentBg: '#0e213d', headerBg: '#0e213d', footerBg: '#0e213d' },
      Popover: { colorBgElevated: '#0f2442' },
      Button: { primaryShadow: '0 0 12px rgba(24, 183, 240, 0.35)' },
    },
  },
  concise: {
    algorithm: defaultAlgorithm,
    token: {
      colorPrimary: '#1668dc',
      colorInfo: '#1668dc',
      colorBgLayout: '#f3f6fb',
      colorBorderSecondary: '#edf0f5',
      borderRadius: 6,
      fontFamily: FONT,
    },
  },
};

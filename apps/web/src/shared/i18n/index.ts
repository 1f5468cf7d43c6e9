import { useSyncExternalStore } from 'react';
import { LANGS, type Lang, type Text } from '@nest/contracts';
import { KEYS, storage } from '../storage';
import { zhCN, type Catalog } from './zh-CN';
import { enUS } from './en-US';

export type { Catalog };
export const CATALOGS: Readonly<Record<Lang, Catalog>> = { zh: zhCN, en: enUS };

type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];
/** Every key of the catalogs, as `feature.area.item`. */
export type MessageKey = Paths<Catalog>;
export type Vars = Readonly<Record<string, string | number>>;

/** Language stored under `language`: 'en' (or 'en-US'...) is English, anything else Chinese (the default). */
export function readStoredLang(): Lang {
  const raw = storage.get(KEYS.language);
  return raw !== null && raw.toLowerCase().startsWith('en') ? 'en' : 'zh';
}

let current: Lang = readStoredLang();
const listeners = new Set<() => void>();

export const getLang = (): Lang => current;

/** Changes the language of this page without reloading (login screen preview, tests). */
export function applyLang(lang: Lang): void {
  if (!LANGS.includes(lang) || lang === current) return;
  current = lang;
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en-US';
  listeners.forEach((l) => l());
}

/** Saves the language for later visits (SPEC: saved locally, then the page reloads). */
export function saveLang(lang: Lang): void {
  storage.set(KEYS.language, lang);
}

function lookup(catalog: Catalog, key: string): string | undefined {
  let node: unknown = catalog;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function interpolate(template: string, vars?: Vars): string {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** Translates a key in the current language (or the one given). Unknown keys come back as the key. */
export function t(key: MessageKey, vars?: Vars, lang: Lang = current): string {
  return interpolate(lookup(CATALOGS[lang], key) ?? key, vars);
}

/** A text carried by contracts (enum labels, code texts, menu titles) in the current language. */
export const tx = (text: Text, lang: Lang = current): string => text[lang];

/** React binding: re-renders when the page language changes. */
export function useI18n(): { t: typeof t; tx: typeof tx; lang: Lang } {
  const lang = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getLang,
    getLang,
  );
  return { t: (key, vars, l = lang) => t(key, vars, l), tx: (text, l = lang) => tx(text, l), lang };
}

/** Flattens a catalog to `key -> text` (used by the catalog test). */
export function flattenCatalog(catalog: object, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(catalog)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object') Object.assign(out, flattenCatalog(v as object, key));
    else out[key] = v;
  }
  return out;
}

import { useSyncExternalStore } from 'react';
import { LANGS, type Lang, type Text } from '@nest/contracts';
import { KEYS, storage } from '../storage';
import { shellEn, shellZh, type ShellCatalog } from './shell';

/**
 * The catalog types known to the compiler. This module holds the shell's texts; the application adds the
 * type of its full catalog as `full` (a `declare module` next to where it registers the texts), so that
 * every `t()` key is checked against the texts that are registered.
 */
export interface CatalogTypes {
  shell: ShellCatalog;
}
/** The full catalog: the application's when it declares one, else the shell's. */
export type Catalog = CatalogTypes extends { full: infer C } ? C : ShellCatalog;

type Section = Readonly<Record<string, unknown>>;
const catalogs: Record<Lang, Record<string, Section>> = { zh: { ...shellZh }, en: { ...shellEn } };

/**
 * Adds top-level sections (`feature: { ... }`) to a language's catalog. Called at start-up, before the first
 * render, so that every screen, lazily loaded or not, finds its texts on its first render.
 */
export function registerCatalog(lang: Lang, sections: Readonly<Record<string, Section>>): void {
  Object.assign(catalogs[lang], sections);
}

/**
 * The registered catalog of a language (the shell's texts and every registered section). Typed as the full
 * Catalog although sections register at start-up: TypeScript cannot follow registerCatalog's additions.
 */
export const catalogOf = (lang: Lang): Catalog => catalogs[lang] as unknown as Catalog;

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

/**
 * The page's `<html lang>` tag of a language ('zh-CN', as index.html starts, or 'en-US'). Dates and numbers
 * are formatted with contracts' `localeOf`/`formatDateTime`, not with this tag.
 */
export const htmlLangOf = (lang: Lang): string => (lang === 'en' ? 'en-US' : 'zh-CN');

/** Changes the language of this page without reloading (login screen preview, tests). */
export function applyLang(lang: Lang): void {
  if (!LANGS.includes(lang) || lang === current) return;
  current = lang;
  document.documentElement.lang = htmlLangOf(lang);
  listeners.forEach((l) => l());
}

/** Calls `cb` after each change of the page's language; returns the unsubscribe. */
export function onLangChange(cb: () => void): () => void {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** Saves the language for later visits (SPEC: saved locally, then the page reloads). */
export function saveLang(lang: Lang): void {
  storage.set(KEYS.language, lang);
}

function lookup(catalog: object, key: string): string | undefined {
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
  return interpolate(lookup(catalogs[lang], key) ?? key, vars);
}

/** A text carried by contracts (enum labels, code texts, menu titles) in the current language. */
export const tx = (text: Text, lang: Lang = current): string => text[lang];

/** React binding: re-renders when the page language changes. */
export function useI18n(): { t: typeof t; tx: typeof tx; lang: Lang } {
  const lang = useSyncExternalStore(
    onLangChange,
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

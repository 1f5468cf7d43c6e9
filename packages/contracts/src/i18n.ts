/** Both languages of the product. `zh` is zh-CN, `en` is en-US. */
export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];

/** A piece of user-visible text in both languages. */
export interface Text {
  zh: string;
  en: string;
}

export function pick(text: Text, lang: Lang): string {
  return text[lang];
}

/** Normalises `os_language` and the like: anything starting with "en" is English, the rest Chinese. */
export function toLang(value: unknown): Lang {
  return typeof value === 'string' && value.toLowerCase().startsWith('en') ? 'en' : 'zh';
}

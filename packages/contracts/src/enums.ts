import type { Lang, Text } from './i18n.js';

/**
 * Enumerations of SPEC section 4, each value with its label in both languages. One helper builds them so
 * every enumeration answers the same questions: values, label of a value, options for a select.
 */
export interface Enumeration<V extends number | string> {
  readonly name: string;
  readonly entries: readonly { value: V; label: Text }[];
  values(): V[];
  has(value: unknown): value is V;
  label(value: V | number | string, lang: Lang): string;
  options(lang: Lang): { value: V; label: string }[];
}

export function enumeration<V extends number | string>(
  name: string,
  entries: readonly (readonly [V, string, string])[],
): Enumeration<V> {
  const list = entries.map(([value, zh, en]) => ({ value, label: { zh, en } }));
  const byValue = new Map<unknown, Text>(list.map((e) => [e.value, e.label]));
  return {
    name,
    entries: list,
    values: () => list.map((e) => e.value),
    has: (value: unknown): value is V => byValue.has(value),
    label: (value, lang) => byValue.get(value)?.[lang] ?? String(value),
    options: (lang) => list.map((e) => ({ value: e.value, label: e.label[lang] })),
  };
}

export const RecordState = enumeration('RecordState', [
  [10, '正常', 'Normal'],
  [20, '已删除', 'Deleted'],
] as const);

export const OnlineStatus = enumeration('OnlineStatus', [
  [1, '在线', 'Online'],
  [2, '离线', 'Offline'],
  [3, '他人连接中', 'Connected by someone'],
] as const);

export const Company = enumeration('Company', [
  ['wk', '沃科', 'wk'],
  ['gzGh', '广州国弘', 'gzGh'],
  ['zrhk', '中睿航空', 'zrhk'],
] as const);

/** Every enumeration, for completeness tests and documentation. */
export const ALL_ENUMS: readonly Enumeration<number | string>[] = [RecordState, OnlineStatus, Company];

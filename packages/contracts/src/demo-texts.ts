import { DeviceTypeKey } from './enums.js';
import type { Lang, Text } from './i18n.js';

/**
 * The texts the product writes itself into the database as names and descriptions: the simulated fleet,
 * its demo fences and routes, the demo actor, the first administrator and the standard device types.
 *
 * The database keeps one value per name (new rows get the Chinese form); what leaves the server (call
 * answers and push frames) shows a catalogue text in the language of the request, and sentences that
 * embed a name are composed per language from these forms. A value that is not a catalogue text (what a
 * user typed) is shown exactly as stored. A value is a catalogue text when it equals one of its forms:
 * Chinese, English, or a form an older version stored (`legacy`, e.g. the bilingual route names
 * "巡检 A01 · Patrol A01"); so a demo device renamed back to its English name in the English console
 * is still a demo name, and a user who types exactly a demo name gets one.
 *
 * `{label}` is the demo object's code (A01, B01, D01: the nest's letter and number), `{lat}` and `{lng}`
 * are decimal degrees.
 */
export interface DemoText extends Text {
  /** Forms that older versions stored; recognised, never written. */
  legacy?: readonly string[];
}

/** What each parameter of a demo text may be. */
const PARAMS: Readonly<Record<string, string>> = {
  label: '[A-Z]\\d{2,3}',
  lat: '-?\\d{1,2}(?:\\.\\d{1,7})?',
  lng: '-?\\d{1,3}(?:\\.\\d{1,7})?',
};

/** Standard device types (contracts DeviceTypeKey): their labels are stored as the seeded types' names and notes. */
const deviceTypeTexts = Object.fromEntries(
  DeviceTypeKey.entries.map((e) => [`deviceType.${e.value}`, { zh: e.label.zh, en: e.label.en }]),
) as Record<`deviceType.${'stable' | 'stable_mini' | 'mobile' | 'alone'}`, DemoText>;

export const DEMO_TEXTS = {
  /** Simulated devices (the simulator's demoFleet). */
  'device.nest': { zh: '机场 {label}', en: 'Nest {label}' },
  'device.miniNest': { zh: '迷你机场 {label}', en: 'Mini nest {label}' },
  'device.mobileNest': { zh: '移动机场 {label}', en: 'Mobile nest {label}' },
  'device.soldier': { zh: '单兵 {label}', en: 'Soldier {label}' },
  /** An emulated DJI Dock 2 (server demo/dji.ts) and its M3D. */
  'device.djiDock': { zh: '大疆机场 {label}', en: 'DJI Dock {label}' },
  'device.djiDockUav': { zh: '大疆机场 {label} 无人机', en: 'DJI Dock {label} UAV' },
  /** The drone of a simulated nest. */
  'device.nestUav': { zh: '机场 {label} 无人机', en: 'Nest {label} UAV', legacy: ['机场 {label} UAV'] },
  'device.miniNestUav': { zh: '迷你机场 {label} 无人机', en: 'Mini nest {label} UAV', legacy: ['迷你机场 {label} UAV'] },
  'device.mobileNestUav': { zh: '移动机场 {label} 无人机', en: 'Mobile nest {label} UAV', legacy: ['移动机场 {label} UAV'] },
  /** Deployment address and description of a simulated device. */
  'device.address': { zh: '模拟位置（{lat}, {lng}）', en: 'Simulated ({lat}, {lng})' },
  'device.description': { zh: '模拟设备（SIMULATOR=on）', en: 'Simulated device (SIMULATOR=on)' },
  /** Demo plans of a simulated nest (server demo/plans.ts). */
  'plan.fence': { zh: '演示围栏 {label}', en: 'Demo fence {label}', legacy: ['演示围栏 {label} · Demo fence {label}'] },
  'plan.patrol': { zh: '巡检 {label}', en: 'Patrol {label}', legacy: ['巡检 {label} · Patrol {label}'] },
  'plan.survey': { zh: '测区 {label}', en: 'Survey {label}', legacy: ['测区 {label} · Survey {label}'] },
  /** The demo no-fly zone of a demo company (server demo/seed.ts), near one of its nests, and its reason. */
  'plan.noFly': { zh: '演示禁飞区 学校 {label}', en: 'Demo no-fly zone: school {label}' },
  'plan.noFlyReason': { zh: '上课时段禁止飞越校园（演示）', en: 'No overflight of the school during classes (demo)' },
  /** The system actor of demo plans and demo launches (sorties' and the command log's user). */
  'user.demo': { zh: '演示', en: 'Demo', legacy: ['演示 Demo'] },
  /** Nick of the first super administrator. */
  'user.administrator': { zh: '管理员', en: 'Administrator' },
  ...deviceTypeTexts,
} as const satisfies Record<string, DemoText>;

export type DemoTextKey = keyof typeof DEMO_TEXTS;
export type DemoParams = Readonly<Record<string, string | number>>;

const fill = (template: string, params: DemoParams): string =>
  template.replace(/\{(\w+)\}/g, (m, name: string) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m));

/** A catalogue text in one language (the Chinese form, which is what the database stores, by default). */
export function demoText(key: DemoTextKey, params: DemoParams = {}, lang: Lang = 'zh'): string {
  return fill(DEMO_TEXTS[key][lang], params);
}

interface Pattern {
  key: DemoTextKey;
  re: RegExp;
  names: string[];
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(key: DemoTextKey, form: string): Pattern {
  const names: string[] = [];
  const body = form
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return escapeRe(part);
      names.push(m[1]!);
      return `(${PARAMS[m[1]!] ?? '[^\\s]+'})`;
    })
    .join('');
  return { key, re: new RegExp(`^${body}$`), names };
}

const FIXED = new Map<string, DemoTextKey>();
/** The parameterised forms by their first character (UTF-16 code), tried in catalogue order. */
const PATTERNS = new Map<number, Pattern[]>();
/** First characters of every form: most strings (ids, times, what users typed) are rejected by one look-up. */
const STARTS = new Set<number>();
let maxLength = 0;
for (const [key, t] of Object.entries(DEMO_TEXTS) as [DemoTextKey, DemoText][]) {
  for (const form of [t.zh, t.en, ...(t.legacy ?? [])]) {
    maxLength = Math.max(maxLength, form.length + 24);
    const start = form.charCodeAt(0);
    STARTS.add(start);
    if (form.includes('{')) {
      let list = PATTERNS.get(start);
      if (!list) PATTERNS.set(start, (list = []));
      list.push(compile(key, form));
    } else if (!FIXED.has(form)) {
      FIXED.set(form, key);
    }
  }
}

/** Could be a catalogue text (length and first character); false for most values at the cost of one look-up. */
const mayBeDemo = (value: string): boolean => value.length > 0 && value.length <= maxLength && STARTS.has(value.charCodeAt(0));

/** The catalogue entry a stored value is, with its parameters; null for anything else (what a user typed). */
export function demoTextOf(value: string): { key: DemoTextKey; params: Record<string, string> } | null {
  if (!mayBeDemo(value)) return null;
  const fixed = FIXED.get(value);
  if (fixed) return { key: fixed, params: {} };
  for (const p of PATTERNS.get(value.charCodeAt(0)) ?? []) {
    const m = p.re.exec(value);
    if (m) return { key: p.key, params: Object.fromEntries(p.names.map((n, i) => [n, m[i + 1]!])) };
  }
  return null;
}

/**
 * Values already looked up that may be catalogue texts, with both languages' forms (null: not one). Demo
 * names repeat in every list and frame, so each is matched once; bounded, emptied when full.
 */
const SHOWN = new Map<string, Text | null>();
const SHOWN_MAX = 10_000;

/** A stored value as shown in `lang`: the catalogue text in that language, or the value as stored. */
export function showText(value: string, lang: Lang): string {
  if (!mayBeDemo(value)) return value;
  let shown = SHOWN.get(value);
  if (shown === undefined) {
    const found = demoTextOf(value);
    shown = found ? { zh: demoText(found.key, found.params, 'zh'), en: demoText(found.key, found.params, 'en') } : null;
    if (SHOWN.size >= SHOWN_MAX) SHOWN.clear();
    SHOWN.set(value, shown);
  }
  return shown ? shown[lang] : value;
}

/** Both languages' forms of a stored value, for a sentence composed per language (a user's value twice). */
export function textsOf(value: string): Text {
  const found = demoTextOf(value);
  return found ? { zh: demoText(found.key, found.params, 'zh'), en: demoText(found.key, found.params, 'en') } : { zh: value, en: value };
}

const isPlain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A call answer or push frame with every catalogue text shown in `lang` (strings at any depth of plain
 * objects and arrays). The input is not changed: parts without a catalogue text are shared, so an answer
 * without one costs a walk and no copy. The values of `zh` and `en` keys are left alone: a `{zh, en}`
 * pair already carries each language.
 */
export function showTexts<T>(data: T, lang: Lang): T {
  return walk(data, lang) as T;
}

function walk(value: unknown, lang: Lang): unknown {
  if (typeof value === 'string') return showText(value, lang);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = value[i] as unknown;
      const w = walk(v, lang);
      if (w !== v && out === null) out = value.slice(0, i);
      if (out !== null) out.push(w);
    }
    return out ?? value;
  }
  if (!isPlain(value)) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  // Object.keys: one array per object rather than one per property.
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = record[k];
    const w = k === 'zh' || k === 'en' ? v : walk(v, lang);
    if (w !== v && out === null) out = { ...record };
    if (out !== null) out[k] = w;
  }
  return out ?? value;
}

/**
 * The words to search the stored values for when someone searches `keyword` in either language: the
 * keyword itself, plus both forms of the catalogue texts it names or begins: "patrol" also finds "巡检 A01",
 * "Nest A0" also finds "机场 A01", "fixed nest" finds "固定机场", and "巡检" finds "Patrol A01".
 */
export function demoSearchTerms(keyword: string): string[] {
  const typed = keyword.trim();
  const k = typed.toLowerCase();
  const out = new Set<string>([keyword]);
  if (!k) return [...out];
  for (const t of Object.values(DEMO_TEXTS) as DemoText[]) {
    const lits = [t.zh.split('{')[0]!, t.en.split('{')[0]!];
    const params = t.zh.includes('{');
    for (const lit of lits) {
      const low = lit.toLowerCase();
      if (!params) {
        if (low.includes(k)) lits.forEach((l) => out.add(l));
      } else if (low.trimEnd().includes(k)) {
        lits.forEach((l) => out.add(l.trimEnd()));
      } else if (low.length > 0 && k.startsWith(low)) {
        lits.forEach((l) => out.add(l + typed.slice(lit.length)));
      }
    }
  }
  return [...out];
}

import { readFileSync } from 'node:fs';
import { HealthModule, healthItemSchema, type HealthItem, type Lang } from '@nest/contracts';
import { z } from 'zod';

/**
 * Texts of health alarms (AlarmKind device_health). A health item names a text of DJI's HMS catalogue by
 * its key (`dock_tip_<code>`, `fpv_tip_<code>[_in_the_sky]`) and fills its placeholders from its args. The
 * catalogue (hms/hms-texts.json, zh and en only, hms/README.md) stays on the server: it is read once, on
 * the first health alarm presented, and alarms leave the server with their text in both languages.
 */

/** What a device_health row keeps (column `data`, JSON) to compose its text in any language later. */
export const storedHealthSchema = z.object({
  key: z.string(),
  module: z.number().int(),
  level: z.number().int(),
  in_the_sky: z.boolean(),
  device_type: z.string().optional(),
  args: z.record(z.string(), z.number()).optional(),
});
export type StoredHealth = z.infer<typeof storedHealthSchema>;

const catalogueSchema = z.record(z.string(), z.object({ zh: z.string().optional(), en: z.string().optional() }));
type Catalogue = ReadonlyMap<string, { zh?: string; en?: string }>;

const CATALOGUE_URL = new URL('./hms/hms-texts.json', import.meta.url);
let catalogue: Catalogue | null = null;

/** The HMS catalogue, read on first use. */
export function healthCatalogue(): Catalogue {
  catalogue ??= new Map(Object.entries(catalogueSchema.parse(JSON.parse(readFileSync(CATALOGUE_URL, 'utf8')))));
  return catalogue;
}

/** A code as rows keep it: "0x" and upper-case hex digits ("0x160900bf" -> "0x160900BF"); other forms as they are. */
export const normalCode = (code: string): string => (/^0x[0-9a-f]+$/i.test(code) ? `0x${code.slice(2).toUpperCase()}` : code);

/** A valid health item as a row keeps it. */
export const storedHealthOf = (item: HealthItem): StoredHealth => ({
  key: item.key,
  module: item.module,
  level: item.level,
  in_the_sky: item.in_the_sky,
  ...(item.device_type !== undefined ? { device_type: item.device_type } : {}),
  ...(item.args !== undefined ? { args: item.args } : {}),
});

/** Words of DJI's side placeholders: sensor_index 0, 1 (batteries, dock covers) and 0..3 (charging rods). */
const SIDES: Readonly<Record<Lang, readonly string[]>> = { zh: ['左', '右'], en: ['left', 'right'] };
const RODS: Readonly<Record<Lang, readonly string[]>> = { zh: ['前', '后', '左', '右'], en: ['front', 'back', 'left', 'right'] };

/** Placeholders, longest first so `%index` does not eat the start of `%index...` names. */
const PLACEHOLDER = /%(charging_rod_index|dock_cover_index|component_index|battery_index|alarmid|index)/g;

/**
 * A catalogue text with its placeholders filled (DJI-CLOUD-API.md section 8, as DJI's demo fills them):
 * %alarmid the alarm id in hex, %component_index component_index + 1, %index sensor_index + 1,
 * %battery_index / %dock_cover_index left or right, %charging_rod_index front, back, left or right (both by
 * sensor_index). A placeholder whose argument is missing or out of range stays as written.
 */
export function fillHealthText(template: string, args: Readonly<Record<string, number>> | undefined, lang: Lang): string {
  const a = args ?? {};
  const num = (name: string): number | undefined => (typeof a[name] === 'number' && Number.isInteger(a[name]) ? a[name] : undefined);
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const sensor = num('sensor_index');
    switch (name) {
      case 'alarmid': {
        const id = num('alarm_id');
        return id !== undefined && id >= 0 ? id.toString(16) : whole;
      }
      case 'component_index': {
        const c = num('component_index');
        return c !== undefined ? String(c + 1) : whole;
      }
      case 'index':
        return sensor !== undefined ? String(sensor + 1) : whole;
      case 'battery_index':
      case 'dock_cover_index':
        return (sensor !== undefined && SIDES[lang][sensor]) || whole;
      default:
        return (sensor !== undefined && RODS[lang][sensor]) || whole;
    }
  });
}

/** The text of a key the catalogue does not have: it names the code, the module and the key. */
export function unknownHealthText(code: string, module: number, key: string, lang: Lang): string {
  const mod = HealthModule.has(module) ? HealthModule.label(module, lang) : String(module);
  return lang === 'zh' ? `未知健康消息 ${code}（${mod}模块，${key}）` : `Unknown health message ${code} (${mod} module, ${key})`;
}

/**
 * The message of a health alarm in both languages. A key the catalogue has in one language only shows that
 * language's text in both.
 */
export function healthText(code: string, h: StoredHealth): { zh: string; en: string } {
  // Catalogue keys spell the code's hex digits in upper case; a device spelling them otherwise finds them too.
  const entry = healthCatalogue().get(h.key) ?? healthCatalogue().get(h.key.replace(/0x[0-9a-f]+/i, normalCode));
  const zh = entry?.zh ?? entry?.en;
  const en = entry?.en ?? entry?.zh;
  return {
    zh: zh !== undefined ? fillHealthText(zh, h.args, 'zh') : unknownHealthText(code, h.module, h.key, 'zh'),
    en: en !== undefined ? fillHealthText(en, h.args, 'en') : unknownHealthText(code, h.module, h.key, 'en'),
  };
}

/** The text of a stored device_health row (`detail` its code, `data` its StoredHealth); null when `data` is unreadable. */
export function storedHealthText(detail: string, data: string | null): { zh: string; en: string } | null {
  if (data === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const h = storedHealthSchema.safeParse(parsed);
  return h.success ? healthText(detail, h.data) : null;
}

/** The composed text of a stored alarm row (device_health), undefined for kinds that have none. */
export function alarmRowText(r: { kind: string; detail: string; data: string | null }): { zh: string; en: string } | undefined {
  return r.kind === 'device_health' ? (storedHealthText(r.detail, r.data) ?? undefined) : undefined;
}

/** Items read of one `health` event (the contract's limit); more are ignored. */
const MAX_HEALTH_ITEMS = 256;

/**
 * The items of a `health` event: the valid ones (the first of each code), and the codes of items that are
 * not valid but still name a code (they keep an open episode of that code open: a malformed report is not a
 * clear). Null when the event has no item list at all (it changes nothing).
 */
export function healthItemsOf(data: unknown): { items: HealthItem[]; unreadable: Set<string> } | null {
  if (data === null || typeof data !== 'object' || !Array.isArray((data as { items?: unknown }).items)) return null;
  const items = new Map<string, HealthItem>();
  const unreadable = new Set<string>();
  for (const raw of (data as { items: unknown[] }).items.slice(0, MAX_HEALTH_ITEMS)) {
    const item = healthItemSchema.safeParse(raw);
    if (item.success) {
      const code = normalCode(item.data.code);
      if (!items.has(code)) items.set(code, item.data);
    } else {
      const code = (raw as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && code.length > 0 && code.length <= 32) unreadable.add(normalCode(code));
    }
  }
  return { items: [...items.values()], unreadable };
}

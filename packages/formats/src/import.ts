import type { Text } from '@nest/contracts';
import { readGeoJson, isGeoJson } from './geojson.js';
import { readKml, readKmlDom } from './kml.js';
import type { ImportLimits } from './limits.js';
import { DEFAULT_LIMITS, ReadContext, checkFileSize, decodeText, parseJsonSafe } from './limits.js';
import type { PlanDocument } from './model.js';
import { isEmptyDocument } from './model.js';
import { isQgcPlan, readQgcPlan } from './qgc.js';
import { FormatError, T, fail } from './texts.js';
import { readWpml } from './wpml.js';
import type { Element } from './xml.js';
import { parseXml } from './xml.js';
import { extractEntry, isZip, readZipDirectory } from './zip.js';

export { checkAgainstTask } from './check.js';

/** Every extension the importer reads. The SPEC's import dialog offers IMPORT_FILE_EXTS (.kml .json .plan). */
export const SUPPORTED_IMPORT_EXTS: readonly string[] = ['.kml', '.kmz', '.json', '.geojson', '.plan'];

export type ImportFormat = 'kml' | 'kmz' | 'geojson' | 'plan';

export interface ImportOptions {
  /** Overrides of DEFAULT_LIMITS. */
  limits?: Partial<ImportLimits>;
  /** Accepted extensions (lower case, with the dot); default SUPPORTED_IMPORT_EXTS. */
  extensions?: readonly string[];
  /** Height (m) for waypoints the file gives none; default 100. */
  defaultHeight?: number;
  /** What a polygon the file does not qualify is: a fence (default) or a survey area. */
  polygonAs?: 'fence' | 'survey';
}

export type ImportResult =
  | { ok: true; doc: PlanDocument; format: ImportFormat; warnings: Text[] }
  | { ok: false; error: Text };

export const DEFAULT_IMPORT_HEIGHT = 100;

const extensionOf = (name: string): string => {
  const base = name.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
};
const baseNameOf = (name: string): string => {
  const base = name.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).slice(0, 64) || 'import';
};

function readKmz(bytes: Uint8Array, ctx: ReadContext): PlanDocument {
  const entries = readZipDirectory(bytes, ctx.limits);
  const budget = { used: 0 };
  const text = (name: string): string => {
    const entry = entries.find((e) => e.name === name)!;
    return decodeText(extractEntry(bytes, entry, ctx.limits, budget), ctx);
  };
  const byName = (suffix: string) => entries.find((e) => e.name.toLowerCase().endsWith(suffix));
  const template = byName('template.kml');
  const waylines = byName('waylines.wpml');
  if (template || waylines) {
    const files: { root: Element; kind: 'template' | 'waylines' }[] = [];
    if (template) files.push({ root: parseXml(text(template.name), ctx.limits).documentElement!, kind: 'template' });
    if (waylines) files.push({ root: parseXml(text(waylines.name), ctx.limits).documentElement!, kind: 'waylines' });
    return readWpml(files, ctx);
  }
  const kml = byName('/doc.kml') ?? entries.find((e) => e.name.toLowerCase() === 'doc.kml') ?? byName('.kml');
  if (!kml) return fail(T.kmzNoKml());
  return readKmlDom(parseXml(text(kml.name), ctx.limits), ctx);
}

function readJson(text: string, ctx: ReadContext): { doc: PlanDocument; format: ImportFormat } {
  const value = parseJsonSafe(text, ctx.limits);
  if (isQgcPlan(value)) return { doc: readQgcPlan(value, ctx), format: 'plan' };
  if (isGeoJson(value)) return { doc: readGeoJson(value, ctx), format: 'geojson' };
  return fail(T.notGeoJsonOrPlan());
}

/**
 * Reads a route/fence file into the neutral model. Dispatches by extension (.kml, .kmz, .json GeoJSON
 * or QGC plan, .geojson, .plan) and sniffs the content where names lie (a zip named .kml, a plan named
 * .json). Untrusted input: sizes, nesting, coordinate counts and values are checked (see limits.ts).
 * Never throws: every refusal is `{ok: false, error}` with a message in both languages.
 */
export function importPlanFile(name: string, bytes: Uint8Array, opts: ImportOptions = {}): ImportResult {
  const allowed = opts.extensions ?? SUPPORTED_IMPORT_EXTS;
  const ext = extensionOf(name);
  if (!allowed.includes(ext)) return { ok: false, error: T.unsupportedExtension(name, allowed) };
  const limits: ImportLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const ctx = new ReadContext(limits, baseNameOf(name), opts.defaultHeight ?? DEFAULT_IMPORT_HEIGHT, opts.polygonAs ?? 'fence');
  try {
    checkFileSize(bytes, limits);
    let result: { doc: PlanDocument; format: ImportFormat };
    if (isZip(bytes)) {
      if (ext !== '.kmz') ctx.warn(T.kmzRenamed());
      result = { doc: readKmz(bytes, ctx), format: 'kmz' };
    } else if (ext === '.kmz') {
      return { ok: false, error: T.notZip() };
    } else {
      const text = decodeText(bytes, ctx);
      const trimmed = text.trimStart();
      if (ext === '.kml' || (trimmed.startsWith('<') && !trimmed.startsWith('{'))) result = { doc: readKml(text, ctx), format: 'kml' };
      else result = readJson(text, ctx);
    }
    if (isEmptyDocument(result.doc)) return { ok: false, error: T.nothingFound() };
    return { ok: true, doc: result.doc, format: result.format, warnings: ctx.warnings };
  } catch (e) {
    if (e instanceof FormatError) return { ok: false, error: e.text };
    return { ok: false, error: T.unreadable(e instanceof Error ? e.message : String(e)) };
  }
}

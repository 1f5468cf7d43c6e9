// Route/fence file converter and inspector on top of @nest/formats.
// Usage: npm run convert -- <input file> [--to kml|geojson|plan|kmz] [--out <file>] [--lang en|zh]
//                            [--survey-as mapping|route] [--polygon-as fence|survey]
//   without --to: prints a summary (fences, no-fly zones, routes, surveys, strip scans, waypoints per route,
//                 bounding box) and every note of the import (an unrepresentable .plan item by its number)
//   with --to:    writes the converted file (default: beside the input, with the new extension)
//   --to kmz of an area: a DJI mapping2d mission (--survey-as mapping, the default) or the route @nest/geo
//                 generates for it (--survey-as route); plain polygons count as areas for kmz unless
//                 --polygon-as fence, and as fences otherwise unless --polygon-as survey
// Any unreadable or unsupported input: one line on stderr and exit code 1.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Lang, Text } from '@nest/contracts';
import { FinishAction, HeightType, NoFlyShape } from '@nest/contracts';
import type { ExportFormat, PlanDocument } from '@nest/formats';
import { EXPORT_FORMATS, boundingBox, exportPlanFile, importPlanFile, surveyRoute } from '@nest/formats';

const USAGE =
  'usage: npm run convert -- <input file> [--to kml|geojson|plan|kmz] [--out <file>] [--lang en|zh] [--survey-as mapping|route] [--polygon-as fence|survey]';

interface Args {
  input?: string;
  to?: string;
  out?: string;
  lang: Lang;
  help: boolean;
  surveyAs: 'mapping' | 'route';
  polygonAs?: 'fence' | 'survey';
}

function parseArgs(argv: string[]): Args {
  const args: Args = { lang: 'en', help: false, surveyAs: 'mapping' };
  const oneOf = <T extends string>(name: string, v: string, allowed: readonly T[]): T =>
    allowed.includes(v as T) ? (v as T) : die(`${name} takes ${allowed.join(' or ')}, not "${v}"`);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) die(`${a} needs a value`);
      return v;
    };
    if (a === '--to') args.to = value();
    else if (a === '--out' || a === '-o') args.out = value();
    else if (a === '--lang') args.lang = value() === 'zh' ? 'zh' : 'en';
    else if (a === '--survey-as') args.surveyAs = oneOf(a, value(), ['mapping', 'route'] as const);
    else if (a === '--polygon-as') args.polygonAs = oneOf(a, value(), ['fence', 'survey'] as const);
    else if (a === '--help' || a === '-h') args.help = true;
    else if (a.startsWith('--to=')) args.to = a.slice(5);
    else if (a.startsWith('--out=')) args.out = a.slice(6);
    else if (a.startsWith('-')) die(`unknown option ${a}`);
    else if (args.input === undefined) args.input = a;
    else die(`unexpected argument ${a}`);
  }
  return args;
}

/** A refusal of the input or the arguments: one line on stderr and exit code 1 (convert). */
class Refused extends Error {}

function die(message: string): never {
  throw new Refused(message.replace(/\s+/g, ' ').trim());
}

const coord = (v: number): string => v.toFixed(7);

function summary(name: string, doc: PlanDocument, format: string, warnings: Text[], lang: Lang): string {
  const lines: string[] = [`${name} (${format})${doc.name ? `: ${doc.name}` : ''}`];
  lines.push(`fences: ${doc.fences.length}`);
  for (const f of doc.fences) {
    lines.push(`  - ${f.name}: ${f.boundary.length} points${f.max_height !== undefined ? `, max height ${f.max_height} m` : ''}`);
  }
  const zones = doc.noFlyZones ?? [];
  lines.push(`no-fly zones: ${zones.length}`);
  for (const z of zones) {
    const shape =
      z.shape === NoFlyShape.CIRCLE && z.center
        ? `${NoFlyShape.label(z.shape, lang)}, radius ${z.radius} m at ${coord(z.center.lat)}, ${coord(z.center.lng)}`
        : `${NoFlyShape.label(z.shape, lang)}, ${z.boundary.length} points`;
    lines.push(`  - ${z.name}: ${shape}${z.reason ? `, ${z.reason}` : ''}`);
  }
  lines.push(`routes: ${doc.routes.length}`);
  for (const r of doc.routes) {
    const finish = r.settings?.finish_action;
    lines.push(
      `  - ${r.name}: ${r.waypoints.length} waypoints, ${HeightType.label(r.height_type, lang)}` +
        (finish !== undefined ? `, ${FinishAction.label(finish, lang)}` : ''),
    );
  }
  lines.push(`surveys: ${doc.surveys.length}`);
  for (const s of doc.surveys) {
    const p = s.params ?? {};
    const extra = [
      p.angle !== undefined ? `angle ${p.angle}°` : '',
      p.course_overlap !== undefined ? `front ${p.course_overlap}%` : '',
      p.lateral_overlap !== undefined ? `side ${p.lateral_overlap}%` : '',
      p.default_height !== undefined ? `height ${p.default_height} m` : '',
    ].filter(Boolean);
    lines.push(`  - ${s.name}: ${s.polygon.length} points${extra.length ? `, ${extra.join(', ')}` : ''}`);
  }
  const corridors = doc.corridors ?? [];
  if (corridors.length) {
    lines.push(`strip scans: ${corridors.length}`);
    for (const c of corridors) lines.push(`  - ${c.name}: ${c.line.length} points, width ${c.width} m`);
  }
  const box = boundingBox(doc);
  if (box) {
    lines.push(`bounding box: lat ${coord(box.minLat)} .. ${coord(box.maxLat)}, lng ${coord(box.minLng)} .. ${coord(box.maxLng)}`);
  }
  for (const w of warnings) lines.push(`warning: ${w[lang]}`);
  return lines.join('\n');
}

/** Where the converter writes: standard output and error when run as a program. */
export interface ConvertOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Runs the converter with the program's arguments; answers its exit code: 0, or 1 after one line on stderr
 * for any unreadable or unsupported input. The program (`npm run convert --`) is this with the process's
 * arguments and streams; tests call it in the test's own process.
 */
export async function convert(argv: string[], output: ConvertOutput): Promise<number> {
  try {
    await run(argv, output);
    return 0;
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    output.stderr(`convert: ${e.message}\n`);
    return 1;
  }
}

async function run(argv: string[], output: ConvertOutput): Promise<void> {
  const args = parseArgs(argv);
  if (args.help) {
    output.stdout(`${USAGE}\n`);
    return;
  }
  if (!args.input) die(USAGE);
  if (args.to !== undefined && !EXPORT_FORMATS.includes(args.to as ExportFormat)) {
    die(`unsupported output format "${args.to}" (use ${EXPORT_FORMATS.join(', ')})`);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(args.input));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    die(`cannot read ${args.input}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`);
  }
  // For a DJI package a plain polygon is an area to map (a fence has no place there).
  const polygonAs = args.polygonAs ?? (args.to === 'kmz' ? 'survey' : 'fence');
  const result = importPlanFile(basename(args.input), bytes, { polygonAs });
  if (!result.ok) die(`${args.input}: ${result.error[args.lang]}`);

  if (args.to === undefined) {
    output.stdout(`${summary(args.input, result.doc, result.format, result.warnings, args.lang)}\n`);
    return;
  }
  let doc = result.doc;
  const notes: Text[] = [];
  const survey = doc.surveys[0];
  if (args.to === 'kmz' && survey && !doc.routes.some((r) => r.mission_type === 2)) {
    // The waylines of a survey package fly the route @nest/geo generates for the area.
    const made = await surveyRoute(survey);
    if (!made.ok) die(`${args.input}: ${made.error[args.lang]}`);
    doc = { ...doc, routes: [made.route, ...doc.routes] };
    if (made.note) notes.push(made.note);
  }
  const out = exportPlanFile(doc, args.to as ExportFormat, { surveyAs: args.surveyAs });
  if (!out.ok) die(`${args.input}: ${out.error[args.lang]}`);
  const target =
    args.out ?? join(dirname(args.input), basename(args.input, extname(args.input)) + (out.ext === extname(args.input) ? `.converted${out.ext}` : out.ext));
  try {
    writeFileSync(target, out.bytes);
  } catch (e) {
    die(`cannot write ${target}: ${(e as Error).message}`);
  }
  for (const w of [...result.warnings, ...notes, ...out.warnings]) output.stderr(`warning: ${w[args.lang]}\n`);
  output.stdout(`wrote ${target} (${out.bytes.length} bytes)\n`);
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  process.exitCode = await convert(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

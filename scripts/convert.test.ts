/// <reference types="node" />
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importPlanFile } from '@nest/formats';
import { convert as runConvert } from './convert.js';

/**
 * scripts/convert.ts: its `convert` in this process with the arguments `npm run convert --` passes, and
 * (`program`) the script run as a child process the way `npm run convert --` runs it, for the exit codes and
 * streams of the program itself.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const fixture = (name: string): string => fileURLToPath(new URL(`../packages/formats/src/fixtures/${name}`, import.meta.url));
const convert = async (...args: string[]) => {
  let out = '';
  let err = '';
  const code = await runConvert(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
};
const program = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/convert.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const tmp = mkdtempSync(join(tmpdir(), 'convert-'));

describe('convert CLI', { timeout: 60_000 }, () => {
  it('without --to prints a summary: fences, routes with waypoint counts, surveys, bounding box', async () => {
    const r = await convert(fixture('qgc-mission.plan'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('fences: 2');
    expect(r.out).toContain('routes: 1');
    expect(r.out).toContain('  - qgc-mission: 3 waypoints, Relative height, Return home');
    expect(r.out).toContain('surveys: 1');
    expect(r.out).toContain('bounding box: lat 47.3950000 .. 47.4004399, lng 8.5416082 .. 8.5500000');
    expect(r.out).toContain('warning: 2 rally point(s) ignored');
  });
  it('--lang zh prints the labels and warnings in Chinese', async () => {
    const r = await convert(fixture('dji-pilot.kml'), '--lang', 'zh');
    expect(r.code).toBe(0);
    expect(r.out).toContain('  - 航点: 3 waypoints, 相对高度, 返航');
    expect(r.out).toContain('warning: 已忽略 1 个不支持的航点动作（StartRecording）');
  });
  it('--to writes the converted file beside the input by default, and it reads back', async () => {
    const input = join(tmp, 'fence.kml');
    writeFileSync(input, readFileSync(fixture('google-earth.kml')));
    const r = await convert(input, '--to', 'geojson');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wrote .*fence\.json \(\d+ bytes\)/);
    const back = importPlanFile('fence.json', new Uint8Array(readFileSync(join(tmp, 'fence.json'))));
    expect(back.ok && back.doc.fences).toHaveLength(3);
  });
  it('--out names the file; every format', async () => {
    for (const to of ['kml', 'geojson', 'plan', 'kmz']) {
      const out = join(tmp, `out-${to}.${to}`);
      const r = await convert(fixture('dji-pilot.kml'), '--to', to, '--out', out);
      expect(r.code, r.err).toBe(0);
      expect(existsSync(out)).toBe(true);
    }
  });
  it('lists no-fly zones as it lists fences, and every unrepresentable .plan item by its number', async () => {
    const zones = await convert(fixture('real/ce_geofence_rd_2.plan'));
    expect(zones.code).toBe(0);
    expect(zones.out).toContain('fences: 1\n  - ce_geofence_rd_2: 4 points\nno-fly zones: 1\n  - ce_geofence_rd_2 NFZ 1: Polygon, 4 points\n');
    const items = await convert(fixture('real/PX4SITL-PX4-MultiRotor.plan'), '--to', 'plan', '--out', join(tmp, 'px4.plan'));
    expect(items.code, items.err).toBe(0);
    expect(items.err).toContain('warning: Item 5 (MAV_CMD 195 DO_SET_ROI_LOCATION): region of interest');
    expect(items.err).toContain('warning: Item 7 (MAV_CMD 19 NAV_LOITER_TIME): timed loiter of 30 s');
    const back = importPlanFile('px4.plan', new Uint8Array(readFileSync(join(tmp, 'px4.plan'))));
    expect(back.ok && back.doc.routes[0]!.takeoff).toEqual({ at: { lat: 47.3996949, lng: 8.5455 }, alt: 30 });
  });
  it('--to kmz of a KML polygon: a DJI mapping2d mission, or with --survey-as route the generated route; both read back as the survey', async () => {
    for (const surveyAs of ['mapping', 'route']) {
      const out = join(tmp, `area-${surveyAs}.kmz`);
      const r = await convert(fixture('real/togeojson-style_url.kml'), '--to', 'kmz', '--survey-as', surveyAs, '--out', out);
      expect(r.code, r.err).toBe(0);
      const back = importPlanFile('area.kmz', new Uint8Array(readFileSync(out)));
      expect(back.ok && back.doc.surveys.map((s) => [s.name, s.polygon.length])).toEqual([['Building 41', 18]]);
    }
    const bad = await convert(fixture('real/togeojson-style_url.kml'), '--to', 'kmz', '--survey-as', 'grid');
    expect(bad.err).toBe('convert: --survey-as takes mapping or route, not "grid"\n');
  });
  it('runs as the program npm run convert runs: the summary on stdout with exit code 0, a refusal as one line on stderr with exit code 1', () => {
    const ok = program(fixture('qgc-mission.plan'));
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('routes: 1');
    expect(ok.err).toBe('');
    const refused = program(join(tmp, 'missing.kml'));
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    expect(refused.err).toMatch(/^convert: cannot read .*missing\.kml: no such file\n$/);
  });

  it('unreadable or unsupported input: one line on stderr, exit code 1', async () => {
    const cases: [string[], RegExp][] = [
      [[join(tmp, 'missing.kml')], /^convert: cannot read .*missing\.kml: no such file\n$/],
      [[fixture('billion-laughs.kml')], /^convert: .*billion-laughs\.kml: The file contains a DOCTYPE or ENTITY declaration and is refused for safety\n$/],
      [[fixture('google-earth.kml'), '--to', 'gpx'], /^convert: unsupported output format "gpx" \(use kml, geojson, plan, kmz\)\n$/],
      [[], /^convert: usage: npm run convert -- <input file>/],
    ];
    const txt = join(tmp, 'notes.txt');
    writeFileSync(txt, 'hello');
    cases.push([[txt], /^convert: .*notes\.txt: Unsupported file type "notes\.txt"/]);
    for (const [args, pattern] of cases) {
      const r = await convert(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toMatch(pattern);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

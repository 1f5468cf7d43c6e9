import type { Polygon } from 'geojson';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { NoFlyShape, ZoneKind, type NoFlyZone, type Zone } from '@nest/contracts';
import { haversineDistance, wgs84ToGcj02 } from '@nest/geo';
import { applyLang } from '../i18n';
import { ZONE_LABEL_MIN_PX, ZoneLegend, noFlyLabelElement, noFlyToGeoJson, zoneLabelElement, zoneLabelFits, zonesToGeoJson } from './zoneOverlay';
import { noFlyStatus } from './noFly';
import { loadZones } from './zones';

const paths = [
  { lat: 22.51, lng: 114.05 },
  { lat: 22.51, lng: 114.06 },
  { lat: 22.52, lng: 114.06 },
];
const zone = (id: string, type: number, extra: Partial<Zone> = {}): Zone => ({
  id,
  type,
  name: { zh: `区域${id}`, en: `Zone ${id}` },
  paths,
  stroke_color: '#f5a623',
  solid_color: 'rgba(245,166,35,0.2)',
  stroke_width: 2,
  ...extra,
});
const answer = (body: unknown, status = 200) => (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

afterEach(() => {
  cleanup();
  act(() => applyLang('zh'));
});

describe('map zones', () => {
  it('reads names in both languages; a plain name stands for both; malformed zones and a missing resource give none', async () => {
    const list = [zone('a', ZoneKind.RESTRICTED), { ...zone('b', ZoneKind.WORK), name: 'Old row' }, { id: 'c', type: 1 }];
    const zones = await loadZones(answer({ types: [], list }));
    expect(zones.map((z) => [z.id, z.name])).toEqual([
      ['a', { zh: '区域a', en: 'Zone a' }],
      ['b', { zh: 'Old row', en: 'Old row' }],
    ]);
    expect(await loadZones(answer({}, 404))).toEqual([]);
  });

  it('draws each zone as a closed polygon in the basemap coordinates, with its colours', () => {
    const fc = zonesToGeoJson('amap', [zone('a', ZoneKind.NO_FLY, { stroke_color: '', solid_color: '' })]);
    const f = fc.features[0]!;
    const ring = (f.geometry as { coordinates: number[][][] }).coordinates[0]!;
    const g = wgs84ToGcj02(paths[0]!);
    expect(ring[0]).toEqual([g.lng, g.lat]);
    expect(ring[ring.length - 1]).toEqual(ring[0]);
    // A zone without colours takes its kind's.
    expect(f.properties).toMatchObject({ id: 'a', type: ZoneKind.NO_FLY, stroke: '#e5484d' });
  });

  it('writes a zone label only while the zone is drawn large enough to hold it', () => {
    const square = (side: number) => [{ x: 10, y: 10 }, { x: 10 + side, y: 10 }, { x: 10 + side, y: 10 + side }, { x: 10, y: 10 + side }];
    expect(zoneLabelFits(square(ZONE_LABEL_MIN_PX))).toBe(true);
    expect(zoneLabelFits(square(ZONE_LABEL_MIN_PX - 1))).toBe(false);
    // A long thin strip (the river border) holds it by its length.
    expect(zoneLabelFits([{ x: 0, y: 0 }, { x: ZONE_LABEL_MIN_PX + 40, y: 4 }, { x: 0, y: 6 }])).toBe(true);
    expect(zoneLabelFits([])).toBe(false);
  });

  it('labels a zone with its kind and name in the language', () => {
    expect(zoneLabelElement(zone('a', ZoneKind.RESTRICTED), 'zh').textContent).toBe('限飞区区域a');
    const el = zoneLabelElement(zone('a', ZoneKind.RESTRICTED), 'en');
    expect([...el.children].map((c) => c.textContent)).toEqual(['Restricted zone', 'Zone a']);
  });

  it('shows the legend of the three kinds while there are zones, in the language', () => {
    const { rerender } = render(<ZoneLegend zones={[]} />);
    expect(screen.queryByTestId('zone-legend')).toBeNull();
    rerender(<ZoneLegend zones={[zone('a', ZoneKind.RESTRICTED)]} />);
    expect(screen.getByTestId('zone-legend').textContent).toBe('禁飞区限飞区作业区');
    act(() => applyLang('en'));
    const kinds = [...screen.getByTestId('zone-legend').children].map((c) => [c.getAttribute('data-kind'), c.textContent]);
    expect(kinds).toEqual([['1', 'No-fly zone'], ['2', 'Restricted zone'], ['3', 'Work zone']]);
    expect(screen.getByTestId('map-zones').textContent).toBe('Restricted zone Zone a');
  });
});

const NOW = 1_800_000_000;
const noFly = (id: string, extra: Partial<NoFlyZone> = {}): NoFlyZone => ({
  id,
  name: `School ${id}`,
  reason: 'classes',
  shape: NoFlyShape.POLYGON,
  boundary: paths,
  center: null,
  radius: null,
  sn_id: '',
  valid_from: null,
  valid_to: null,
  active: true,
  user_name: 'admin',
  create_time: NOW,
  modified_time: NOW,
  ...extra,
});

describe('company no-fly zones on the maps', () => {
  it('draws a circle as a round ring around its centre, and a zone outside its period dashed', () => {
    const centre = { lat: 22.5, lng: 114.0 };
    const data = noFlyToGeoJson('offline', [noFly('c', { shape: NoFlyShape.CIRCLE, boundary: [], center: centre, radius: 300 }), noFly('p', { active: false, valid_to: NOW - 1 })], NOW);
    const [circle, polygon] = data.features;
    const ring = (circle!.geometry as Polygon).coordinates[0]!;
    expect(ring.length).toBeGreaterThan(16);
    for (const [lng, lat] of ring) expect(Math.abs(haversineDistance(centre, { lat: lat!, lng: lng! }) - 300)).toBeLessThan(1);
    expect(circle!.properties).toMatchObject({ id: 'nofly:c', dashed: false });
    expect(polygon!.properties).toMatchObject({ id: 'nofly:p', dashed: true });
  });

  it('says whether a zone is in force, not yet valid or expired', () => {
    expect(noFlyStatus(noFly('a'), NOW)).toBe('active');
    expect(noFlyStatus(noFly('a', { active: false, valid_from: NOW + 1 }), NOW)).toBe('upcoming');
    expect(noFlyStatus(noFly('a', { active: false, valid_to: NOW - 1 }), NOW)).toBe('expired');
  });

  it('labels a zone with its kind, name and, while it does not restrict, its status, in the language', () => {
    expect([...noFlyLabelElement(noFly('a'), 'zh', NOW).children].map((c) => c.textContent)).toEqual(['企业禁飞区', 'School a']);
    const expired = noFlyLabelElement(noFly('a', { active: false, valid_to: NOW - 1 }), 'en', NOW);
    expect([...expired.children].map((c) => c.textContent)).toEqual(['Company no-fly zone', 'School a', 'Expired']);
  });

  it('adds the company zone to the legend, and the dashed outline while one is outside its period', () => {
    const { rerender } = render(<ZoneLegend zones={[]} noFly={[noFly('a')]} />);
    const kinds = () => [...screen.getByTestId('zone-legend').children].map((c) => [c.getAttribute('data-kind'), c.textContent]);
    expect(kinds().at(-1)).toEqual(['nofly', '企业禁飞区']);
    rerender(<ZoneLegend zones={[]} noFly={[noFly('a'), noFly('b', { active: false, valid_from: NOW * 2 })]} />);
    expect(kinds().slice(-2)).toEqual([['nofly', '企业禁飞区'], ['nofly-inactive', '未在有效期（虚线）']]);
    act(() => applyLang('en'));
    expect(kinds().slice(-2)).toEqual([['nofly', 'No-fly zone (company)'], ['nofly-inactive', 'Outside its validity (dashed)']]);
    expect(screen.getByTestId('map-zones').textContent).toBe('Company no-fly zone School aCompany no-fly zone School b');
  });
});

/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { kml as togeojson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { IMPORT_FILE_EXTS, NoFlyShape } from '@nest/contracts';
import type { ImportResult, PlanDocument } from './index.js';
import { importPlanFile } from './index.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
function ok(r: ImportResult): { doc: PlanDocument; warnings: { zh: string; en: string }[] } {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.en}`);
  return r;
}
function err(r: ImportResult): { zh: string; en: string } {
  if (r.ok) throw new Error('expected an error');
  return r.error;
}
const kml = (body: string): Uint8Array =>
  text(`<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`);
const pm = (name: string, geometry: string): string => `<Placemark><name>${name}</name>${geometry}</Placemark>`;

describe('Google Earth KML (Folders, MultiGeometry, odd whitespace, holes)', () => {
  const r = ok(importPlanFile('reservoir.kml', fixture('google-earth.kml')));
  it('reads polygons as fences, in document order, MultiGeometry flattened and named', () => {
    expect(r.doc.fences.map((f) => f.name)).toEqual(['North dam fence', 'Spillway zones (1)', 'Spillway zones (2)']);
    expect(r.doc.fences[0]!.boundary).toHaveLength(4); // closing point dropped
    expect(r.doc.fences[0]!.boundary[3]).toEqual({ lat: 22.53830688318013, lng: 113.941351890564 });
    expect(r.doc.fences[1]!.boundary).toHaveLength(4); // ring given without closing point
  });
  it('reads a LineString as a route with altitudes; tuples with tabs, newlines and ", " are fine', () => {
    const route = r.doc.routes[0]!;
    expect(route.name).toBe('Dam crest path');
    expect(route.height_type).toBe(0);
    expect(route.waypoints.map((w) => [w.lng, w.lat, w.height])).toEqual([
      [113.9415, 22.5425, 60],
      [113.943, 22.5426, 60],
      [113.9445, 22.5427, 65],
      [113.946, 22.5428, 70],
    ]);
  });
  it('a lone Point placemark is a one-waypoint route named after its folder, with the default height', () => {
    expect(r.doc.routes[1]).toMatchObject({ name: 'Patrol', waypoints: [{ lat: 22.5402, lng: 113.9421, height: 100 }] });
    expect(r.warnings.map((w) => w.en)).toContain('Route "Patrol": 1 waypoint(s) had no height; the default 100 m was used');
  });
  it('warns that holes are ignored', () => {
    expect(r.warnings.map((w) => w.zh)).toContain('“North dam fence”的内环（洞）已忽略');
  });
  it('agrees with @tmcw/togeojson on every vertex, and keeps the "lng, lat" tuple togeojson drops', () => {
    const dom = new DOMParser().parseFromString(new TextDecoder().decode(fixture('google-earth.kml')), 'text/xml');
    const fc = togeojson(dom);
    const theirs: number[][] = [];
    for (const f of fc.features) {
      const g = f.geometry;
      if (!g) continue;
      const geoms = g.type === 'GeometryCollection' ? g.geometries : [g];
      for (const x of geoms) {
        if (x.type === 'Polygon') theirs.push(...x.coordinates[0]!.slice(0, -1).map((c) => [c[0]!, c[1]!]));
        if (x.type === 'LineString') theirs.push(...x.coordinates.map((c) => [c[0]!, c[1]!]));
        if (x.type === 'Point') theirs.push([x.coordinates[0]!, x.coordinates[1]!]);
      }
    }
    const ours = [
      ...r.doc.fences.flatMap((f) => f.boundary.map((p) => [p.lng, p.lat])),
      ...r.doc.routes.flatMap((rt) => rt.waypoints.map((p) => [p.lng, p.lat])),
    ];
    // togeojson splits on whitespace before commas, so "113.9430, 22.5426, 60" silently disappears.
    expect(ours.filter(([x, y]) => !(x === 113.943 && y === 22.5426))).toEqual(theirs);
    expect(ours).toHaveLength(theirs.length + 1);
  });
});

describe('DJI Pilot / GS Pro KML (Chinese names, mis: ExtendedData)', () => {
  const r = ok(importPlanFile('变电站.kml', fixture('dji-pilot.kml')));
  it('merges the "Wayline" LineString into the waypoint folder route and takes its settings', () => {
    expect(r.doc.name).toBe('变电站巡检航线');
    expect(r.doc.routes).toHaveLength(1);
    const route = r.doc.routes[0]!;
    expect(route.name).toBe('航点');
    expect(route.settings).toEqual({ auto_speed: 5, default_height: 50, finish_action: 20 });
    expect(route.waypoints.map((w) => w.height)).toEqual([50, 55.5, 60]);
  });
  it('maps point settings and actions: heading, gimbal pitch, own speed, hover ms, photo', () => {
    const [a, b, c] = r.doc.routes[0]!.waypoints;
    expect(a).toEqual({ lat: 39.90872, lng: 116.39751, height: 50, uav_yaw: 270, hover: 3, takephoto: 1, gimbal_ctrl: { pitch: -45, yaw: 0 }, speed: 6 });
    expect(b).toEqual({ lat: 39.90901, lng: 116.39912, height: 55.5 });
    expect(c).toMatchObject({ takephoto: 1, gimbal_ctrl: { pitch: -90, yaw: 0 } });
    expect(r.warnings.map((w) => w.en)).toEqual(['1 unsupported waypoint action(s) ignored (StartRecording)']);
  });
  it('reads the fence with its max height from ExtendedData', () => {
    expect(r.doc.fences).toEqual([
      {
        name: '作业围栏',
        max_height: 120,
        boundary: [
          { lat: 39.9095, lng: 116.396 },
          { lat: 39.9095, lng: 116.4015 },
          { lat: 39.907, lng: 116.4015 },
          { lat: 39.907, lng: 116.396 },
        ],
      },
    ]);
  });
});

describe('QGC .plan', () => {
  const r = ok(importPlanFile('mission.plan', fixture('qgc-mission.plan')));
  const route = r.doc.routes[0]!;
  it('SimpleItems: takeoff kept apart, 16/19 waypoints, actions and the region of interest on the waypoint before them', () => {
    expect(route.height_type).toBe(0);
    expect(route.settings).toEqual({ auto_speed: 6, finish_action: 20 });
    expect(route.takeoff).toEqual({ at: { lat: 47.3977419, lng: 8.5455939 }, alt: 30 });
    expect(route.waypoints).toEqual([
      { lat: 47.3985, lng: 8.544, height: 50, speed: 8, gimbal_ctrl: { pitch: -60, yaw: 0 }, takephoto: 1 },
      { lat: 47.399, lng: 8.5465, height: 55, hover: 5, cam_trig_dist: 20, loiter: { radius: 0 } },
      { lat: 47.397, lng: 8.548, height: 60, uav_yaw: 90, cam_trig_dist: 0, roi: { lat: 47.3975, lng: 8.545, alt: 0 } },
    ]);
  });
  it('survey ComplexItem: polygon [lat, lon], angle, overlaps, turn distance, camera', () => {
    expect(r.doc.surveys).toHaveLength(1);
    const s = r.doc.surveys[0]!;
    expect(s.polygon[0]).toEqual({ lat: 47.3965, lng: 8.5425 });
    expect(s.params).toEqual({
      angle: 30,
      turn_distance: 10,
      course_overlap: 80,
      lateral_overlap: 70,
      default_height: 100,
      height_type: 0,
      camera_name: 'DJI Mavic 3E',
      camera_type: 'custom',
      sensor_width: 17.3,
      sensor_height: 13,
      image_width: 5280,
      image_height: 3956,
      focal_length: 12.29,
    });
  });
  it('geoFence: inclusion polygon and circle (36 points at the radius) are fences, the exclusion polygon a no-fly zone; rally points warned', () => {
    expect(r.doc.fences).toHaveLength(2);
    expect(r.doc.fences[0]!.boundary).toHaveLength(4);
    const circle = r.doc.fences[1]!.boundary;
    expect(circle).toHaveLength(36);
    const c = { lat: 47.3977419, lng: 8.5455939 };
    for (const p of circle) {
      const dy = (p.lat - c.lat) * 111_194.9;
      const dx = (p.lng - c.lng) * 111_194.9 * Math.cos((c.lat * Math.PI) / 180);
      expect(Math.hypot(dx, dy)).toBeCloseTo(300, 0);
    }
    const en = r.warnings.map((w) => w.en);
    expect(en).toContain('2 rally point(s) ignored');
    expect(r.doc.noFlyZones).toEqual([
      {
        name: 'mission NFZ 1',
        shape: NoFlyShape.POLYGON,
        boundary: [{ lat: 47.398, lng: 8.546 }, { lat: 47.398, lng: 8.547 }, { lat: 47.3975, lng: 8.547 }],
        center: null,
        radius: null,
      },
    ]);
    expect(en.some((w) => w.includes('exclusion'))).toBe(false);
    expect(en).toContain(
      'Item 10 (MAV_CMD 195 DO_SET_ROI_LOCATION): region of interest: the following waypoints head and point the gimbal at it; a .plan export keeps the region of interest',
    );
  });
  it('null params are NaN: a waypoint without yaw has no uav_yaw', () => {
    expect(route.waypoints[0]!.uav_yaw).toBeUndefined();
  });
  const plan = (items: unknown[], extra: Record<string, unknown> = {}) =>
    text(JSON.stringify({ fileType: 'Plan', version: 1, mission: { version: 2, items, hoverSpeed: 5 }, ...extra }));
  const wp = (lat: number, lng: number, alt: number | null, frame = 3, more: Record<string, unknown> = {}) => ({
    type: 'SimpleItem',
    command: 16,
    frame,
    params: [0, 0, 0, null, lat, lng, alt],
    ...more,
  });
  it('frame 0 is above sea level; the frame wins over a disagreeing AltitudeMode (with a warning)', () => {
    const a = ok(importPlanFile('a.plan', plan([wp(30, 120, 500, 0), wp(30.001, 120, 510, 0, { AltitudeMode: 1 })])));
    expect(a.doc.routes[0]!.height_type).toBe(1);
    expect(a.warnings.map((w) => w.en)).toContain('Some items have an AltitudeMode that disagrees with their frame; the frame was used');
  });
  it('AltitudeMode 3 (calculated above terrain) takes Altitude and marks the route for elevation computing', () => {
    const a = ok(importPlanFile('a.plan', plan([wp(30, 120, null, 0, { AltitudeMode: 3, Altitude: 80 }), wp(30.001, 120, null, 0, { AltitudeMode: 3, Altitude: 90 })])));
    expect(a.doc.routes[0]!.waypoints.map((w) => w.height)).toEqual([80, 90]);
    expect(a.doc.routes[0]!.settings?.elevation).toBe(true);
    expect(a.warnings[0]!.en).toMatch(/terrain-following/);
  });
  it('mission version 1 items (coordinate, param1..4) are read', () => {
    const a = ok(
      importPlanFile('old.plan', plan([{ type: 'missionItem', command: 16, frame: 3, coordinate: [30, 120, 40], param1: 2, param2: 0, param3: 0, param4: 0 }, { type: 'missionItem', command: 16, frame: 3, coordinate: [30.001, 120, 45], param1: 0, param2: 0, param3: 0, param4: 0 }])),
    );
    expect(a.doc.routes[0]!.waypoints).toEqual([
      { lat: 30, lng: 120, height: 40, hover: 2, uav_yaw: 0 },
      { lat: 30.001, lng: 120, height: 45, uav_yaw: 0 },
    ]);
  });
  it('a plan is recognised by content under .json too', () => {
    expect(ok(importPlanFile('mission.json', fixture('qgc-mission.plan'))).doc.routes).toHaveLength(1);
  });
});

describe('GeoJSON', () => {
  const r = ok(importPlanFile('光伏.json', fixture('inspection.json')));
  it('Polygon fence with max height, LineString route with heights from properties or the third value', () => {
    expect(r.doc.name).toBe('光伏电站');
    expect(r.doc.fences[0]).toMatchObject({ name: '光伏一区围栏', max_height: 150 });
    expect(r.doc.fences[0]!.boundary).toHaveLength(4);
    expect(r.doc.routes[0]!.waypoints.map((w) => w.height)).toEqual([45, 45, 50, 45]);
  });
  it('Point features grouped by properties.route, in order; null geometry skipped', () => {
    expect(r.doc.routes[1]).toMatchObject({ name: '设备点位', waypoints: [{ lat: 30.2781, lng: 120.1222, height: 30 }, { lat: 30.2764, lng: 120.1242, height: 35 }] });
  });
  it('a bare geometry and a single Feature are accepted; kind=survey makes a survey area', () => {
    const g = ok(importPlanFile('g.geojson', text(JSON.stringify({ type: 'Polygon', coordinates: [[[1, 1], [1, 2], [2, 2], [1, 1]]] }))));
    expect(g.doc.fences).toHaveLength(1);
    const s = ok(
      importPlanFile(
        's.json',
        text(JSON.stringify({ type: 'Feature', properties: { kind: 'survey', name: 'S', angle: 15 }, geometry: { type: 'MultiPolygon', coordinates: [[[[1, 1], [1, 2], [2, 2], [1, 1]]]] } })),
      ),
    );
    expect(s.doc.surveys).toEqual([{ name: 'S', polygon: [{ lat: 1, lng: 1 }, { lat: 2, lng: 1 }, { lat: 2, lng: 2 }], params: { angle: 15 } }]);
  });
  it('refuses a projected CRS', () => {
    const e = err(importPlanFile('p.json', text(JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'EPSG:3857' } }, features: [] }))));
    expect(e.en).toMatch(/only WGS84/);
  });
  it('JSON that is neither GeoJSON nor a plan', () => {
    expect(err(importPlanFile('x.json', text('{"hello": 1}'))).en).toBe('Not a GeoJSON or QGroundControl plan (.plan) file');
  });
});

describe('KML variety', () => {
  it('altitudeMode absolute means heights above sea level', () => {
    const r = ok(importPlanFile('a.kml', kml(pm('L', '<LineString><altitudeMode>absolute</altitudeMode><coordinates>120,30,500 120.001,30,510</coordinates></LineString>'))));
    expect(r.doc.routes[0]!.height_type).toBe(1);
  });
  it('Points across nested folders form one route per folder, in document order', () => {
    const r = ok(
      importPlanFile(
        'p.kml',
        kml(
          `<Folder><name>A</name>${pm('a1', '<Point><coordinates>1,1,10</coordinates></Point>')}<Folder><name>B</name>${pm('b1', '<Point><coordinates>3,3,30</coordinates></Point>')}</Folder>${pm('a2', '<Point><coordinates>2,2,20</coordinates></Point>')}</Folder>`,
        ),
      ),
    );
    expect(r.doc.routes.map((x) => [x.name, x.waypoints.map((w) => w.height)])).toEqual([
      ['A', [10, 20]],
      ['B', [30]],
    ]);
  });
  it('a root Document without <kml>, a gx prefix that is never declared, and CDATA coordinates', () => {
    const r = ok(
      importPlanFile(
        'd.kml',
        text(`<Document><name>Bare</name><Placemark><name>T</name><gx:Track><gx:coord>120 30 50</gx:coord><gx:coord>120.001 30 55</gx:coord></gx:Track></Placemark>${pm('P', '<Polygon><outerBoundaryIs><LinearRing><coordinates><![CDATA[1,1 1,2 2,2 1,1]]></coordinates></LinearRing></outerBoundaryIs></Polygon>')}</Document>`),
      ),
    );
    expect(r.doc.routes[0]!.waypoints.map((w) => w.height)).toEqual([50, 55]);
    expect(r.doc.fences).toHaveLength(1);
  });
  it('GBK-encoded KML with a declaration, and UTF-16 with a BOM', () => {
    const gbk = new Uint8Array([
      ...text('<?xml version="1.0" encoding="GBK"?><kml><Document><Placemark><name>'),
      0xce, 0xa7, 0xc0, 0xb8, // 围栏 in GBK
      ...text('</name><Polygon><outerBoundaryIs><LinearRing><coordinates>1,1 1,2 2,2</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>'),
    ]);
    expect(ok(importPlanFile('g.kml', gbk)).doc.fences[0]!.name).toBe('围栏');
    const s = '<kml><Document><Placemark><name>航线</name><LineString><coordinates>1,1,5 2,2,6</coordinates></LineString></Placemark></Document></kml>';
    const u16 = new Uint8Array(2 + s.length * 2);
    u16.set([0xff, 0xfe]);
    for (let i = 0; i < s.length; i++) {
      u16[2 + 2 * i] = s.charCodeAt(i) & 0xff;
      u16[3 + 2 * i] = s.charCodeAt(i) >> 8;
    }
    expect(ok(importPlanFile('u.kml', u16)).doc.routes[0]!.name).toBe('航线');
  });
  it('a KMZ holding a plain doc.kml (Google Earth), and a KMZ named .kml', () => {
    const zip = zipSync({ 'doc.kml': strToU8(new TextDecoder().decode(fixture('google-earth.kml'))), 'files/icon.png': new Uint8Array(10) });
    expect(ok(importPlanFile('ge.kmz', zip)).doc.fences).toHaveLength(3);
    const renamed = ok(importPlanFile('ge.kml', zip));
    expect(renamed.warnings.map((w) => w.en)).toContain('The file content is a KMZ (zip) and was read as one');
  });
});

describe('refusals are clear texts, never throws', () => {
  it('extension not accepted, with the SPEC list when the caller restricts to it', () => {
    expect(err(importPlanFile('route.gpx', text('<gpx/>'))).en).toBe('Unsupported file type "route.gpx": choose a .kml, .kmz, .json, .geojson, .plan file');
    expect(err(importPlanFile('route.kmz', new Uint8Array(4), { extensions: IMPORT_FILE_EXTS })).zh).toBe('不支持的文件类型“route.kmz”，请选择 .kml、.json、.plan 文件');
  });
  it('empty, malformed XML, not KML, nothing usable', () => {
    expect(err(importPlanFile('e.kml', new Uint8Array(0))).en).toBe('The file is empty');
    expect(err(importPlanFile('m.kml', text('<kml><Document></kml>'))).en).toMatch(/^The XML is malformed/);
    expect(err(importPlanFile('h.kml', text('<html><body/></html>'))).en).toBe('Not a KML file (the root element is <html>)');
    expect(err(importPlanFile('n.kml', kml('<name>x</name>'))).zh).toBe('文件中没有围栏、航线或测区');
  });
  it('NaN, Infinity, out-of-range and malformed coordinates name the placemark', () => {
    const line = (c: string) => kml(pm('坏点', `<LineString><coordinates>${c}</coordinates></LineString>`));
    expect(err(importPlanFile('a.kml', line('120,30,10 abc,30,10'))).en).toBe('坏点: coordinate "abc,30,10" is not a valid number');
    expect(err(importPlanFile('a.kml', line('120,30,10 NaN,30'))).en).toMatch(/not a valid number/);
    expect(err(importPlanFile('a.kml', line('Infinity,30'))).en).toMatch(/not a valid number/);
    expect(err(importPlanFile('a.kml', line('120,95'))).en).toBe('坏点: latitude 95 is out of range (-90 to 90)');
    expect(err(importPlanFile('a.kml', line('190,30'))).zh).toBe('坏点：经度 190 超出范围（-180 到 180）');
    expect(err(importPlanFile('a.kml', line('120'))).en).toMatch(/should be longitude,latitude/);
    expect(err(importPlanFile('a.kml', line('120,30,1e999'))).en).toBe('坏点: the altitude is not a valid number');
    const geo = (c: unknown) => text(JSON.stringify({ type: 'LineString', coordinates: c }));
    expect(err(importPlanFile('a.json', geo([[120, 30], ['x', 30]]))).en).toMatch(/not a valid number/);
    expect(err(importPlanFile('a.json', geo([[120, 91]]))).en).toMatch(/latitude 91 is out of range/);
    const plan = text(JSON.stringify({ fileType: 'Plan', mission: { items: [{ type: 'SimpleItem', command: 16, frame: 3, params: [0, 0, 0, 0, 100, 8, 10] }] } }));
    expect(err(importPlanFile('a.plan', plan)).en).toMatch(/latitude 100 is out of range/);
  });
  it('malformed JSON and a plan without fileType', () => {
    expect(err(importPlanFile('a.plan', text('{"fileType": "Plan",'))).en).toMatch(/^The JSON is malformed/);
    expect(err(importPlanFile('a.plan', text('[1,2]'))).en).toBe('Not a GeoJSON or QGroundControl plan (.plan) file');
  });
});

describe('DJI Pilot 2 KMZ (WPML template)', () => {
  const template = (folder: string, mc = '<wpml:finishAction>autoLand</wpml:finishAction>') =>
    `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:wpml="http://www.dji.com/wpmz/1.0.2">
  <Document>
    <wpml:author>pilot</wpml:author>
    <wpml:missionConfig><wpml:flyToWaylineMode>safely</wpml:flyToWaylineMode>${mc}<wpml:globalTransitionalSpeed>12</wpml:globalTransitionalSpeed><wpml:globalRTHHeight>100</wpml:globalRTHHeight></wpml:missionConfig>
    <Folder>${folder}</Folder>
  </Document>
</kml>`;
  it('mapping2d template: the polygon becomes a survey area with direction, overlaps and height', () => {
    const folder = `<wpml:templateType>mapping2d</wpml:templateType><wpml:templateId>0</wpml:templateId>
      <wpml:waylineCoordinateSysParam><wpml:coordinateMode>WGS84</wpml:coordinateMode><wpml:heightMode>EGM96</wpml:heightMode><wpml:globalShootHeight>120</wpml:globalShootHeight></wpml:waylineCoordinateSysParam>
      <wpml:autoFlightSpeed>10</wpml:autoFlightSpeed>
      <Placemark>
        <wpml:direction>45</wpml:direction>
        <wpml:overlap><wpml:orthoCameraOverlapH>80</wpml:orthoCameraOverlapH><wpml:orthoCameraOverlapW>70</wpml:orthoCameraOverlapW></wpml:overlap>
        <Polygon><outerBoundaryIs><LinearRing><coordinates>
          113.93,22.57,0
          113.94,22.57,0
          113.94,22.56,0
          113.93,22.56,0
        </coordinates></LinearRing></outerBoundaryIs></Polygon>
        <wpml:ellipsoidHeight>120</wpml:ellipsoidHeight><wpml:height>120</wpml:height>
      </Placemark>`;
    const r = ok(importPlanFile('测区.kmz', zipSync({ 'wpmz/template.kml': strToU8(template(folder)) })));
    expect(r.doc.surveys).toEqual([
      {
        name: '测区',
        polygon: [
          { lat: 22.57, lng: 113.93 },
          { lat: 22.57, lng: 113.94 },
          { lat: 22.56, lng: 113.94 },
          { lat: 22.56, lng: 113.93 },
        ],
        params: { angle: 45, course_overlap: 80, lateral_overlap: 70, default_height: 120, height_type: 1, auto_speed: 10, finish_action: 30 },
      },
    ]);
  });
  it('waypoint template with global height and speed, ordered by wpml:index, terrain-following warned', () => {
    const pm = (i: number, lng: number, extra = '') =>
      `<Placemark><Point><coordinates>${lng},22.5</coordinates></Point><wpml:index>${i}</wpml:index><wpml:useGlobalHeight>1</wpml:useGlobalHeight><wpml:useGlobalSpeed>1</wpml:useGlobalSpeed>${extra}</Placemark>`;
    const folder = `<wpml:templateType>waypoint</wpml:templateType>
      <wpml:waylineCoordinateSysParam><wpml:coordinateMode>WGS84</wpml:coordinateMode><wpml:heightMode>aboveGroundLevel</wpml:heightMode></wpml:waylineCoordinateSysParam>
      <wpml:autoFlightSpeed>7</wpml:autoFlightSpeed><wpml:globalHeight>80</wpml:globalHeight>
      ${pm(1, 113.92, '<wpml:actionGroup><wpml:actionGroupId>0</wpml:actionGroupId><wpml:actionGroupStartIndex>1</wpml:actionGroupStartIndex><wpml:actionGroupEndIndex>1</wpml:actionGroupEndIndex><wpml:actionTrigger><wpml:actionTriggerType>reachPoint</wpml:actionTriggerType></wpml:actionTrigger><wpml:action><wpml:actionId>0</wpml:actionId><wpml:actionActuatorFunc>startRecord</wpml:actionActuatorFunc></wpml:action></wpml:actionGroup>')}
      ${pm(0, 113.91)}`;
    const r = ok(importPlanFile('wp.kmz', zipSync({ 'wpmz/template.kml': strToU8(template(folder, '<wpml:finishAction>goHome</wpml:finishAction>')) })));
    const route = r.doc.routes[0]!;
    expect(route.waypoints).toEqual([
      { lat: 22.5, lng: 113.91, height: 80 },
      { lat: 22.5, lng: 113.92, height: 80 },
    ]);
    expect(route.settings).toEqual({ finish_action: 20, max_speed: 12, return_height: 100, auto_speed: 7, elevation: true });
    expect(r.warnings.map((w) => w.en)).toEqual([
      'Route "wp" uses terrain-following heights; they were imported as heights above ground and need elevation computing before saving',
      '1 unsupported waypoint action(s) ignored (startRecord)',
    ]);
  });
});

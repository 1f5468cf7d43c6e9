import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { toWpmlKmz } from '@nest/formats';
import { KmzError, readWaylineKmz } from './kmz.js';

const NS = 'xmlns="http://www.opengis.net/kml/2.2" xmlns:wpml="http://www.dji.com/wpmz/1.0.2"';

/** A waylines.wpml written by hand as DJI documents it (longitude first in coordinates). */
const WAYLINES = `<?xml version="1.0" encoding="UTF-8"?>
<kml ${NS}><Document>
  <wpml:missionConfig>
    <wpml:takeOffSecurityHeight>35</wpml:takeOffSecurityHeight>
    <wpml:droneInfo><wpml:droneEnumValue>91</wpml:droneEnumValue><wpml:droneSubEnumValue>0</wpml:droneSubEnumValue></wpml:droneInfo>
  </wpml:missionConfig>
  <Folder>
    <wpml:waylineId>4</wpml:waylineId>
    <wpml:executeHeightMode>WGS84</wpml:executeHeightMode>
    <wpml:autoFlightSpeed>9</wpml:autoFlightSpeed>
    <Placemark><Point><coordinates>114.001,22.502</coordinates></Point><wpml:index>1</wpml:index><wpml:executeHeight>130</wpml:executeHeight></Placemark>
    <Placemark><Point><coordinates>114.000,22.501</coordinates></Point><wpml:index>0</wpml:index><wpml:executeHeight>120</wpml:executeHeight><wpml:waypointSpeed>6</wpml:waypointSpeed>
      <wpml:actionGroup><wpml:action><wpml:actionActuatorFunc>takePhoto</wpml:actionActuatorFunc></wpml:action><wpml:action><wpml:actionActuatorFunc>gimbalRotate</wpml:actionActuatorFunc></wpml:action></wpml:actionGroup>
    </Placemark>
  </Folder>
</Document></kml>`;

const zip = (files: Record<string, string>): Uint8Array => zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));

describe('wayline kmz reader', () => {
  it('reads the waylines: droneInfo, height mode, points in index order, longitude first, speeds and photos', () => {
    const w = readWaylineKmz(zip({ 'wpmz/template.kml': `<kml ${NS}/>`, 'wpmz/waylines.wpml': WAYLINES }));
    expect(w).toMatchObject({ droneEnumValue: 91, droneSubEnumValue: 0, heightMode: 'WGS84', takeOffSecurityHeight: 35, autoFlightSpeed: 9, waylineId: 4 });
    expect(w.points).toEqual([
      { index: 0, lat: 22.501, lng: 114.0, height: 120, speed: 6, photos: 1 },
      { index: 1, lat: 22.502, lng: 114.001, height: 130, speed: 9, photos: 0 },
    ]);
  });

  it('reads what @nest/formats writes for an M3D', () => {
    const out = toWpmlKmz(
      { fences: [], surveys: [], routes: [{ name: 'r', mission_type: 1, height_type: 0, waypoints: [{ lat: 22.5, lng: 114, height: 50, takephoto: 1 }, { lat: 22.501, lng: 114.001, height: 60 }] }] },
      { drone: { droneEnumValue: 91, droneSubEnumValue: 0 } },
    );
    if (!out.ok) throw new Error('export failed');
    const w = readWaylineKmz(out.bytes);
    expect(w.droneEnumValue).toBe(91);
    expect(w.points.map((p) => [p.lat, p.lng, p.height, p.photos])).toEqual([
      [22.5, 114, 50, 1],
      [22.501, 114.001, 60, 0],
    ]);
  });

  it('refuses what is not a wayline kmz', () => {
    const bad = (bytes: Uint8Array, why: RegExp): void => {
      expect(() => readWaylineKmz(bytes)).toThrow(KmzError);
      expect(() => readWaylineKmz(bytes)).toThrow(why);
    };
    bad(strToU8('plain text'), /not a zip/);
    bad(zip({ 'wpmz/waylines.wpml': WAYLINES }), /template\.kml/);
    bad(zip({ 'wpmz/template.kml': '<kml/>' }), /waylines\.wpml/);
    bad(zip({ 'wpmz/template.kml': '<kml/>', 'wpmz/waylines.wpml': WAYLINES.replace(/<wpml:droneInfo>.*<\/wpml:droneInfo>/, '') }), /droneInfo/);
    bad(zip({ 'wpmz/template.kml': '<kml/>', 'wpmz/waylines.wpml': WAYLINES.replace('114.001,22.502', '22.502') }), /coordinates/);
    bad(zip({ 'wpmz/template.kml': '<kml/>', 'wpmz/waylines.wpml': WAYLINES.replace(/<Placemark>[\s\S]*<\/Placemark>/, '') }), /no waypoints/);
  });
});

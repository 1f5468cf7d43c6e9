import { kml as togeojson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { bench, describe } from 'vitest';
import { importPlanFile } from '@nest/formats';

/**
 * Import of a 50,000-vertex KML (a Google Earth style file: one fence polygon of 10,000 vertices and four
 * routes of 10,000 vertices each, inside folders). Baseline: parsing the same text with
 * @xmldom/xmldom's DOMParser alone, in the same run. Our import adds decoding, the DOCTYPE/size/depth
 * scan, strict coordinate parsing and validation and model building on top of that parse. For scale, the
 * usual library route (xmldom parse + @tmcw/togeojson, which neither validates nor checks limits) is
 * measured too.
 */
const VERTICES = 50_000;

function kmlWith(vertices: number): string {
  const per = vertices / 5;
  const coords = (k: number, closed: boolean): string => {
    const out: string[] = [];
    for (let i = 0; i < per; i++) {
      const a = (2 * Math.PI * i) / per;
      out.push(`${(120 + k * 0.1 + 0.05 * Math.cos(a)).toFixed(7)},${(30 + 0.05 * Math.sin(a)).toFixed(7)},${50 + (i % 30)}`);
    }
    if (closed) out.push(out[0]!);
    return out.join(' ');
  };
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>', '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>bench</name>'];
  parts.push(`<Folder><name>fence</name><Placemark><name>围栏</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${coords(0, true)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Folder>`);
  for (let k = 1; k < 5; k++) {
    parts.push(`<Folder><name>route ${k}</name><Placemark><name>航线 ${k}</name><LineString><altitudeMode>relativeToGround</altitudeMode><coordinates>${coords(k, false)}</coordinates></LineString></Placemark></Folder>`);
  }
  parts.push('</Document></kml>');
  return parts.join('\n');
}

const text = kmlWith(VERTICES);
const bytes = new TextEncoder().encode(text);
const check = importPlanFile('bench.kml', bytes);
if (!check.ok || check.doc.routes.length !== 4 || check.doc.fences[0]!.boundary.length !== VERTICES / 5) {
  throw new Error('bench input did not import as expected');
}

describe(`KML import, ${VERTICES.toLocaleString('en')} vertices (${(bytes.length / 1024 / 1024).toFixed(1)} MB)`, () => {
  bench('baseline: @xmldom/xmldom DOMParser.parseFromString alone', () => {
    new DOMParser().parseFromString(text, 'text/xml');
  });
  bench('reference: xmldom parse + @tmcw/togeojson kml()', () => {
    togeojson(new DOMParser().parseFromString(text, 'text/xml'));
  });
  bench('@nest/formats importPlanFile (bytes to checked model)', () => {
    importPlanFile('bench.kml', bytes);
  });
});

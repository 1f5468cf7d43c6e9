import { bbox } from '@turf/bbox';
import { polygon as turfPolygon } from '@turf/helpers';
import { pointGrid } from '@turf/point-grid';
import { bench, describe } from 'vitest';
import { CAMERA_6K, footprint, heightFromGsd, localFrame, ringArea, surveyGrid, triggerDistanceFor, type LatLng } from '@nest/geo';

/**
 * Survey generation over a 10 km² concave area (a comb of five 3 km teeth, turned 17°) at 2 cm/px GSD
 * with the 6k camera (87.9 m high, 80 % front / 80 % side overlap: lines 21.9 m apart, a photo every
 * 14.6 m), sweep lines across the teeth so every line is cut into several transects.
 * - ours: surveyGrid (scanline cut, cells, lawnmower order, photo count);
 * - baseline: the turf-only naive grid: @turf/point-grid over the bounding box at the trigger distance,
 *   masked by the polygon (a point-in-polygon test per grid point), giving the photo points only.
 */
const origin: LatLng = { lat: 30.5, lng: 114.3 };
const frame = localFrame(origin);
function comb(teeth: number, tw: number, th: number): [number, number][] {
  const pts: [number, number][] = [[0, 0], [(2 * teeth - 1) * tw, 0]];
  for (let i = teeth - 1; i >= 0; i--) {
    const x0 = 2 * i * tw;
    pts.push([x0 + tw, tw + th], [x0, tw + th]);
    if (i > 0) pts.push([x0, tw], [x0 - tw, tw]);
  }
  return pts;
}
const raw = comb(5, 400, 3000);
const turn = (17 * Math.PI) / 180;
const place = (k: number) =>
  raw.map(([x, y]) => frame.toLatLng({ x: k * (x * Math.cos(turn) - y * Math.sin(turn)), y: k * (x * Math.sin(turn) + y * Math.cos(turn)) }));
const scale = Math.sqrt(10e6 / ringArea(place(1)));
const area = place(scale);

const gsd = 2;
const params = { camera: CAMERA_6K, gsd, frontOverlap: 80, sideOverlap: 80, angle: 17 + 90, turnDistance: 20 };
const height = heightFromGsd(CAMERA_6K.visible, gsd);
const trigger = triggerDistanceFor(footprint(CAMERA_6K.visible, height).front, params.frontOverlap);
const feature = turfPolygon([[...area, area[0]!].map((p) => [p.lng, p.lat])]);
const box = bbox(feature);

const ours = surveyGrid(area, params);
const naive = pointGrid(box, trigger / 1000, { units: 'kilometers', mask: feature });
console.log(
  `survey bench: area ${(ringArea(area) / 1e6).toFixed(2)} km², ${ours.transects.length} transects, ${ours.photoCount} photos ` +
    `(lines ${ours.lineSpacing.toFixed(1)} m, trigger ${ours.triggerDistance.toFixed(1)} m); naive grid ${naive.features.length} points`,
);

describe('survey grid, 10 km² concave area at 2 cm GSD', () => {
  bench('baseline: turf point-grid masked by the polygon', () => {
    pointGrid(box, trigger / 1000, { units: 'kilometers', mask: feature });
  });
  bench('geo surveyGrid (scanline transects, cells, lawnmower)', () => {
    surveyGrid(area, params);
  });
});

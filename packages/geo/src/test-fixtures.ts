import fc from 'fast-check';
import type { LatLng } from './coords.js';
import { localFrame } from './local.js';

/** Test helpers (not exported by the package): shapes in metres around an origin, and generators. */
export const ORIGIN: LatLng = { lat: 30.5, lng: 114.3 };

/** A point x metres east and y metres north of the origin. */
export function metres(x: number, y: number, origin: LatLng = ORIGIN): LatLng {
  return localFrame(origin).toLatLng({ x, y });
}

export const toMetres = (p: LatLng, origin: LatLng = ORIGIN) => localFrame(origin).toXY(p);

export const shape = (xy: readonly (readonly [number, number])[], origin: LatLng = ORIGIN): LatLng[] =>
  xy.map(([x, y]) => metres(x, y, origin));

export const square = (size: number, x0 = 0, y0 = 0): LatLng[] =>
  shape([
    [x0, y0],
    [x0 + size, y0],
    [x0 + size, y0 + size],
    [x0, y0 + size],
  ]);

/** U opening north: outer w x h, a notch `gap` wide down to `base` metres above the bottom. */
export const uShape = (w = 300, h = 300, gap = 100, base = 100): LatLng[] =>
  shape([
    [0, 0],
    [w, 0],
    [w, h],
    [(w + gap) / 2, h],
    [(w + gap) / 2, base],
    [(w - gap) / 2, base],
    [(w - gap) / 2, h],
    [0, h],
  ]);

export const lShape = (w = 300, h = 300, arm = 100): LatLng[] =>
  shape([
    [0, 0],
    [w, 0],
    [w, arm],
    [arm, arm],
    [arm, h],
    [0, h],
  ]);

/** Star-shaped polygon around the origin: sorted distinct angles, radii in metres. */
export const starPolygon = (angles: number[], radii: number[], origin: LatLng = ORIGIN): LatLng[] =>
  angles.map((a, i) => metres(radii[i]! * Math.cos(a), radii[i]! * Math.sin(a), origin));

/** Arbitrary simple (star-shaped, possibly concave) polygons: 3-24 vertices, radii 50-1000 m. */
export const arbStarPolygon = (origin: LatLng = ORIGIN, minR = 50, maxR = 1000) =>
  fc.integer({ min: 3, max: 24 }).chain((n) =>
    fc
      .tuple(
        fc.array(fc.double({ min: 0.6, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
        fc.array(fc.double({ min: minR, max: maxR, noNaN: true }), { minLength: n, maxLength: n }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      )
      .map(([steps, radii, turn]) => {
        // Angular gaps 0.6-1 of a share: each below pi (the centre sees every edge), never degenerate.
        const total = steps.reduce((a, b) => a + b, 0);
        let acc = turn;
        const angles = steps.map((s) => (acc += (s / total) * 2 * Math.PI));
        return starPolygon(angles, radii, origin);
      }),
  );

/** Arbitrary convex polygons: points on an ellipse. */
export const arbConvexPolygon = (origin: LatLng = ORIGIN) =>
  fc
    .tuple(
      fc.integer({ min: 3, max: 20 }),
      fc.double({ min: 100, max: 1500, noNaN: true }),
      fc.double({ min: 100, max: 1500, noNaN: true }),
      fc.double({ min: 0, max: Math.PI, noNaN: true }),
    )
    .map(([n, rx, ry, rot]) =>
      Array.from({ length: n }, (_, i) => {
        const a = (i / n) * 2 * Math.PI;
        const x = rx * Math.cos(a);
        const y = ry * Math.sin(a);
        return metres(x * Math.cos(rot) - y * Math.sin(rot), x * Math.sin(rot) + y * Math.cos(rot), origin);
      }),
    );

/** L, U and comb shapes with random proportions, rotated. */
export const arbConcavePolygon = (origin: LatLng = ORIGIN) =>
  fc.oneof(
    fc
      .tuple(fc.double({ min: 200, max: 1500, noNaN: true }), fc.double({ min: 200, max: 1500, noNaN: true }), fc.double({ min: 0.1, max: 0.8, noNaN: true }))
      .map(([w, h, f]) => [[0, 0], [w, 0], [w, h * f], [w * f, h * f], [w * f, h], [0, h]] as [number, number][]),
    fc
      .tuple(
        fc.double({ min: 300, max: 1500, noNaN: true }),
        fc.double({ min: 300, max: 1500, noNaN: true }),
        fc.double({ min: 0.1, max: 0.6, noNaN: true }),
        fc.double({ min: 0.1, max: 0.8, noNaN: true }),
      )
      .map(([w, h, g, b]) => [[0, 0], [w, 0], [w, h], [(w + g * w) / 2, h], [(w + g * w) / 2, b * h], [(w - g * w) / 2, b * h], [(w - g * w) / 2, h], [0, h]] as [number, number][]),
    fc
      .tuple(fc.integer({ min: 2, max: 6 }), fc.double({ min: 50, max: 300, noNaN: true }), fc.double({ min: 200, max: 1200, noNaN: true }))
      .map(([teeth, tw, th]) => combXY(teeth, tw, th)),
  ).chain((xy) =>
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }).map((rot) =>
      xy.map(([x, y]) => metres(x * Math.cos(rot) - y * Math.sin(rot), x * Math.sin(rot) + y * Math.cos(rot), origin)),
    ),
  );

/** A comb: a base strip with `teeth` teeth `tw` wide and `th` long, gaps as wide as the teeth. */
export function combXY(teeth: number, tw: number, th: number, baseH = tw): [number, number][] {
  const pts: [number, number][] = [[0, 0], [(2 * teeth - 1) * tw, 0]];
  for (let i = teeth - 1; i >= 0; i--) {
    const x0 = 2 * i * tw;
    pts.push([x0 + tw, baseH + th], [x0, baseH + th]);
    if (i > 0) pts.push([x0, baseH], [x0 - tw, baseH]);
  }
  return pts;
}

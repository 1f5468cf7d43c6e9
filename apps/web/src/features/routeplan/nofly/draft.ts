import { NO_FLY_RADIUS_MAX_M, NoFlyShape, type LatLng, type NoFlyZone } from '@nest/contracts';
import { haversineDistance, noFlyRing, noFlyShapeIssues, offsetMetres, type Issue } from '@nest/geo';

/**
 * A no-fly zone being drawn or edited: the fields of /nofly/add and /nofly/edit, the circle's radius handle
 * on the map, and the checks made before the server is asked (the server makes them again).
 */
export interface NoFlyDraft {
  name: string;
  reason: string;
  shape: 1 | 2;
  /** The polygon's corners (kept while the shape is a circle, so switching back loses nothing). */
  boundary: LatLng[];
  center: LatLng | null;
  /** Metres; null while not typed. */
  radius: number | null;
  /** '' for every device of the company. */
  sn_id: string;
  valid_from: number | null;
  valid_to: number | null;
}

/** The radius a circle gets when its centre is first placed (m). */
export const DEFAULT_RADIUS_M = 200;

export const emptyDraft = (): NoFlyDraft => ({
  name: '',
  reason: '',
  shape: NoFlyShape.POLYGON,
  boundary: [],
  center: null,
  radius: DEFAULT_RADIUS_M,
  sn_id: '',
  valid_from: null,
  valid_to: null,
});

/** The draft of a saved zone. */
export const draftOf = (z: NoFlyZone): NoFlyDraft => ({
  name: z.name,
  reason: z.reason,
  shape: z.shape === NoFlyShape.CIRCLE ? NoFlyShape.CIRCLE : NoFlyShape.POLYGON,
  boundary: z.boundary,
  center: z.center,
  radius: z.radius ?? DEFAULT_RADIUS_M,
  sn_id: z.sn_id,
  valid_from: z.valid_from,
  valid_to: z.valid_to,
});

const isCircle = (d: Pick<NoFlyDraft, 'shape'>): boolean => d.shape === NoFlyShape.CIRCLE;

/** The zone as the rules read it: a circle without its corners, a polygon without centre and radius. */
export function zoneOfDraft(d: NoFlyDraft): Pick<NoFlyZone, 'name' | 'reason' | 'shape' | 'boundary' | 'center' | 'radius' | 'sn_id' | 'valid_from' | 'valid_to'> {
  const circle = isCircle(d);
  return {
    name: d.name.trim(),
    reason: d.reason.trim(),
    shape: d.shape,
    boundary: circle ? [] : d.boundary,
    center: circle ? d.center : null,
    radius: circle ? d.radius : null,
    sn_id: d.sn_id,
    valid_from: d.valid_from,
    valid_to: d.valid_to,
  };
}

/** The fields of /nofly/add (with `id`, /nofly/edit): only the shape's own geometry, no empty optionals. */
export function fieldsOf(d: NoFlyDraft) {
  const z = zoneOfDraft(d);
  return {
    name: z.name,
    reason: z.reason,
    shape: z.shape,
    ...(isCircle(d) ? { center: z.center!, radius: z.radius! } : { boundary: z.boundary }),
    sn_id: z.sn_id,
    ...(z.valid_from !== null ? { valid_from: z.valid_from } : {}),
    ...(z.valid_to !== null ? { valid_to: z.valid_to } : {}),
  };
}

/** The drawn outline (geo noFlyRing: a circle as its polygon); [] while the shape is incomplete. */
export const draftRing = (d: NoFlyDraft): LatLng[] => noFlyRing(zoneOfDraft(d));

/** The circle's radius handle: due east of the centre, one radius away. */
export const radiusHandle = (center: LatLng, radius: number): LatLng => offsetMetres(center, 0, radius);

/** The radius (m, to the decimetre) that puts the handle at `p`. */
export const radiusTo = (center: LatLng, p: LatLng): number => Math.round(haversineDistance(center, p) * 10) / 10;

/** What the draft lacks or gets wrong, each a message key of the feature (with its values). */
export type DraftProblem =
  | { key: 'nameMissing' }
  | { key: 'polygon' }
  | { key: 'center' }
  | { key: 'radius'; max: number }
  | { key: 'period' };

/** The problems of the draft's fields, in the order the form shows them (the outline's are shapeIssues). */
export function draftProblems(d: NoFlyDraft): DraftProblem[] {
  const out: DraftProblem[] = [];
  if (!d.name.trim()) out.push({ key: 'nameMissing' });
  if (isCircle(d)) {
    if (!d.center) out.push({ key: 'center' });
    if (d.radius === null || !(d.radius > 0 && d.radius <= NO_FLY_RADIUS_MAX_M)) out.push({ key: 'radius', max: NO_FLY_RADIUS_MAX_M });
  } else if (d.boundary.length < 3) out.push({ key: 'polygon' });
  if (d.valid_from !== null && d.valid_to !== null && d.valid_from > d.valid_to) out.push({ key: 'period' });
  return out;
}

/**
 * The polygon outline's issues (crossing itself, no area, invalid or repeated corners), worded as the
 * server words them (geo noFlyShapeIssues, the rule its save applies; item indexes are corners); none for a
 * circle (its centre is placed on the map) or a polygon of under 3 corners (draftProblems says that).
 */
export function shapeIssues(d: NoFlyDraft): Issue[] {
  if (isCircle(d) || d.boundary.length < 3) return [];
  return noFlyShapeIssues({ name: d.name.trim(), shape: d.shape, boundary: d.boundary });
}

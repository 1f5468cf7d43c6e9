import { NoFlyShape, type Text } from '@nest/contracts';
import { isValidLatLng, type LatLng } from './coords.js';
import { IssueCode, type Issue } from './issues.js';
import { fenceShapeIssues } from './validation.js';

/**
 * The shape rules of a company no-fly zone (nofly.ts), apart from it because they build on the fence shape
 * rules of validation.ts, which itself reads nofly.ts.
 */

/** The zone on its own in a sentence's subject (`禁飞区「实验小学」`, `No-fly zone "Primary school"`). */
const zoneSubject = (name: string): Text => ({ zh: `禁飞区「${name}」`, en: `No-fly zone "${name}"` });

/** A fence shape issue worded for a zone ("no-fly zone", not "fence"). */
function shapeText(issue: Issue, name: string): Text {
  const z = zoneSubject(name);
  switch (issue.code) {
    case IssueCode.FENCE_POINT_INVALID: {
      const n = (issue.item.index ?? 0) + 1;
      return { zh: `${z.zh}的第 ${n} 个边界点坐标无效`, en: `${z.en}: boundary point ${n} has an invalid coordinate` };
    }
    case IssueCode.FENCE_POINTS_TOO_FEW:
      return { zh: `${z.zh}至少需要 3 个不重合的边界点`, en: `${z.en} needs at least 3 distinct boundary points` };
    case IssueCode.FENCE_SELF_INTERSECTING:
      return { zh: `${z.zh}的边界自相交`, en: `${z.en} crosses itself` };
    default:
      return { zh: `${z.zh}的面积为 0`, en: `${z.en} encloses no area` };
  }
}

/**
 * The issues of a zone's geometry (empty: usable), worded for a zone, for the server's save and the
 * editor's live check alike: a polygon's outline by the fence shape rules (fenceShapeIssues: valid
 * coordinates, at least 3 distinct points, no self-crossing, a non-zero area; item indexes are its
 * corners); a circle's centre a valid WGS84 point (its radius, above 0 and at most NO_FLY_RADIUS_MAX_M, is
 * a field range of the calls).
 */
export function noFlyShapeIssues(zone: { name: string; shape: number; boundary?: readonly LatLng[] | null; center?: LatLng | null }): Issue[] {
  if (zone.shape === NoFlyShape.CIRCLE) {
    if (zone.center && isValidLatLng(zone.center)) return [];
    const z = zoneSubject(zone.name);
    return [{ code: IssueCode.FENCE_POINT_INVALID, item: { kind: 'fence' }, text: { zh: `${z.zh}的圆心坐标无效`, en: `${z.en}: the centre has an invalid coordinate` } }];
  }
  return fenceShapeIssues({ boundary: zone.boundary ?? [], name: zone.name }).map((i) => ({ ...i, text: shapeText(i, zone.name) }));
}

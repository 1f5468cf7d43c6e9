import { describe, expect, it } from 'vitest';
import { NoFlyShape } from '@nest/contracts';
import { IssueCode } from './issues.js';
import { noFlyShapeIssues } from './nofly-shape.js';

const A = { lat: 22.5, lng: 114.0 };
const B = { lat: 22.5, lng: 114.001 };
const C = { lat: 22.501, lng: 114.001 };
const D = { lat: 22.501, lng: 114.0 };

describe('the shape of a no-fly zone', () => {
  it('accepts a simple polygon and a circle with a valid centre', () => {
    expect(noFlyShapeIssues({ name: 'School', shape: NoFlyShape.POLYGON, boundary: [A, B, C, D] })).toEqual([]);
    expect(noFlyShapeIssues({ name: 'Crowd', shape: NoFlyShape.CIRCLE, center: A })).toEqual([]);
  });

  it('words the fence shape rules for a zone, in both languages, with the corner of an invalid point', () => {
    const crossing = noFlyShapeIssues({ name: '学校', shape: NoFlyShape.POLYGON, boundary: [A, C, B, D] });
    expect(crossing.map((i) => i.code)).toEqual([IssueCode.FENCE_SELF_INTERSECTING]);
    expect(crossing[0]!.text).toEqual({ zh: '禁飞区「学校」的边界自相交', en: 'No-fly zone "学校" crosses itself' });
    expect(noFlyShapeIssues({ name: 'S', shape: NoFlyShape.POLYGON, boundary: [A, B] })[0]!.text.en).toBe('No-fly zone "S" needs at least 3 distinct boundary points');
    const invalid = noFlyShapeIssues({ name: 'S', shape: NoFlyShape.POLYGON, boundary: [A, B, { lat: 95, lng: 114 }] });
    expect(invalid[0]!.text.zh).toBe('禁飞区「S」的第 3 个边界点坐标无效');
    expect(noFlyShapeIssues({ name: 'S', shape: NoFlyShape.POLYGON, boundary: [A, B, { lat: 22.5, lng: 114.002 }] })[0]!.text.en).toBe('No-fly zone "S" encloses no area');
  });

  it('refuses a circle without a valid centre', () => {
    expect(noFlyShapeIssues({ name: 'C', shape: NoFlyShape.CIRCLE, center: null })[0]!.text.en).toBe('No-fly zone "C": the centre has an invalid coordinate');
    expect(noFlyShapeIssues({ name: 'C', shape: NoFlyShape.CIRCLE, center: { lat: 0, lng: 200 } })).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { CAMERA_6K, gsdFromHeight, type Issue } from '@nest/geo';
import { DEFAULT_ROUTE, WorkStore, setPhotoKind, type RouteDraft } from './store';
import { gsdForHeight, heightForGsd, highlightsOf, surveyPreview } from './planning';

const A = { lat: 22.5, lng: 113.9 };
const B = { lat: 22.5, lng: 113.91 };
const C = { lat: 22.51, lng: 113.91 };

describe('working state store', () => {
  it('adds, inserts, moves and deletes fence vertices with undo / redo', () => {
    const s = new WorkStore();
    s.reset({ fence: { name: 'f', max_height: 100, boundary: [], sn_id: 'SN' }, fenceId: null, routeItem: null });
    s.addPoint('fence', A);
    s.addPoint('fence', B);
    s.addPoint('fence', C);
    s.insertPoint('fence', 1, { lat: 22.499, lng: 113.905 });
    expect(s.get().fence!.boundary).toHaveLength(4);
    expect(s.get().fence!.boundary[1]).toEqual({ lat: 22.499, lng: 113.905 });
    s.removePoint('fence', 1);
    expect(s.get().fence!.boundary).toEqual([A, B, C]);
    s.undo();
    expect(s.get().fence!.boundary).toHaveLength(4);
    s.redo();
    expect(s.get().fence!.boundary).toEqual([A, B, C]);
    s.undo();
    s.undo();
    s.undo();
    expect(s.get().fence!.boundary).toEqual([A, B]);
    s.addPoint('fence', C); // a new change forgets the redo stack
    expect(s.canRedo()).toBe(false);
  });

  it('derives firstPoint, lastPoint, flightCourse and estTime from the waypoints', () => {
    const s = new WorkStore();
    s.reset({ fence: null, fenceId: 'F', routeItem: { ...DEFAULT_ROUTE, mission_type: 1, fence_id: 'F' } });
    s.addPoint('waypoints', A);
    s.addPoint('waypoints', B);
    const st = s.get();
    expect(st.firstPoint).toEqual(A);
    expect(st.lastPoint).toEqual(B);
    expect(st.flightCourse).toHaveLength(2);
    expect(st.estTime).toBeGreaterThan(0);
    expect(st.routeItem!.waypoints[0]!.height).toBe(DEFAULT_ROUTE.default_height);
  });

  it('keeps photo and panorama exclusive on a waypoint', () => {
    const wp = { ...A, height: 50 };
    const photo = setPhotoKind(wp, 'photo', true);
    expect(photo.takephoto).toBe(1);
    const pano = setPhotoKind(photo, 'panorama', true);
    expect(pano.takephoto).toBe(2);
    expect(setPhotoKind(pano, 'photo', false).takephoto).toBe(2);
    expect('takephoto' in setPhotoKind(pano, 'panorama', false)).toBe(false);
  });
});

describe('survey parameters', () => {
  const route: RouteDraft = { ...DEFAULT_ROUTE, mission_type: 2, fence_id: 'F', camera_type: '6k', area: [A, B, C] };
  it('links GSD and height through the camera (geo)', () => {
    expect(gsdForHeight(route, 100)).toBeCloseTo(gsdFromHeight(CAMERA_6K.visible, 100), 2);
    const h = heightForGsd(route, 2)!;
    expect(gsdForHeight(route, h)).toBeCloseTo(2, 1);
    expect(gsdForHeight({ ...route, camera_type: 'custom' }, 100)).toBeNull();
  });
  it('previews transects, photos and area', () => {
    const p = surveyPreview(route);
    expect(p.grid!.transects.length).toBeGreaterThan(1);
    expect(p.grid!.photoCount).toBeGreaterThan(0);
    expect(p.grid!.area).toBeGreaterThan(0);
  });
});

describe('validation highlighting', () => {
  it('maps issues to vertices, waypoints, legs and general marks', () => {
    const text = { zh: 'x', en: 'x' };
    const issues: Issue[] = [
      { code: 'fence.coordinate', item: { kind: 'fence', index: 2 }, text },
      { code: 'waypoint.outside_fence', item: { kind: 'waypoint', index: 0 }, text },
      { code: 'leg.outside_fence', item: { kind: 'leg', index: 1 }, text },
      { code: 'fence.self_intersecting', item: { kind: 'fence' }, text, at: A },
    ];
    const h = highlightsOf(issues);
    expect([...h.vertices]).toEqual([2]);
    expect([...h.waypoints]).toEqual([0]);
    expect([...h.legs]).toEqual([1]);
    expect(h.general).toBe(true);
    expect(h.at).toEqual([A]);
  });
});

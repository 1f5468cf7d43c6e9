import { describe, expect, it } from 'vitest';
import { MISSION_LIMITS, missionLimitText, type LatLng, type Waypoint } from '@nest/contracts';
import {
  CAMERA_6K,
  gsdFromHeight,
  routeEstimate,
  surveyFromSettings,
  surveyWaypointOptions,
  surveyWaypoints,
  validateRoute,
  type Issue,
} from '@nest/geo';
import { DEFAULT_ROUTE, WorkStore, derive, setPhotoKind, type RouteDraft } from './store';
import { gridWaypoints, gsdForHeight, heightForGsd, highlightsOf, issueLineTexts, missionLimitIssues, surveyPreview, validate } from './planning';

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

/** Metres east / north of a point (flat-earth; the demo routes' own conversion). */
const M_LAT = 111_320;
const at = (o: LatLng, east: number, north: number): LatLng => ({
  lat: Number((o.lat + north / M_LAT).toFixed(7)),
  lng: Number((o.lng + east / (M_LAT * Math.cos((o.lat * Math.PI) / 180))).toFixed(7)),
});
const HOME = { lat: 22.5431, lng: 114.0579 };

describe('the editor estimate is the server estimate (geo routeEstimate from the nest)', () => {
  it('waypoint route (the demo patrol): estTime is routeEstimate from the take-off point, kept across edits', () => {
    const wps: Waypoint[] = [
      [300, 0, 60], [450, 250, 70], [300, 500, 80], [0, 550, 100], [-300, 400, 90], [-400, 100, 80], [-150, -250, 70],
    ].map(([e, n, h]) => ({ ...at(HOME, e!, n!), height: h! }));
    wps[3] = { ...wps[3]!, takephoto: 2, hover: 5 };
    const route: RouteDraft = { ...DEFAULT_ROUTE, mission_type: 1, fence_id: 'F', auto_speed: 8, max_speed: 12, default_height: 80, return_height: 100, waypoints: wps };
    const s = new WorkStore();
    s.reset({ fence: null, fenceId: 'F', routeItem: route, home: HOME });
    const server = routeEstimate({ ...route, waypoints: wps }, HOME);
    expect(s.get().estTime).toBe(server.est_time);
    expect(Number.isInteger(s.get().estTime)).toBe(true);
    // An edit keeps the take-off point; the estimate follows the new waypoints.
    s.removePoint('waypoints', 6);
    expect(s.get().home).toEqual(HOME);
    expect(s.get().estTime).toBe(routeEstimate({ ...route, waypoints: wps.slice(0, 6) }, HOME).est_time);
    // Without the take-off point the home legs are missing (what the list and the editor disagreed on).
    expect(derive({ fence: null, fenceId: 'F', routeItem: route }).estTime).toBeLessThan(server.est_time);
  });

  it('survey (the demo survey): the editor makes the waypoints of the server from the nest, so the same estimate', async () => {
    const area = [at(HOME, 300, -500), at(HOME, 600, -500), at(HOME, 600, -300), at(HOME, 300, -300)];
    const route: RouteDraft = { ...DEFAULT_ROUTE, mission_type: 2, fence_id: 'F', camera_type: '6k', auto_speed: 8, max_speed: 12, default_height: 80, return_height: 100, area };
    // The editor: preview from the take-off point, waypoints of the grid, derive with the home.
    const grid = surveyPreview(route, HOME).grid!;
    const editor = derive({ fence: null, fenceId: 'F', routeItem: { ...route, waypoints: gridWaypoints(grid, route) }, home: HOME });
    // The server (missions/plan.ts): surveyFromSettings from the take-off point, then surveyWaypoints.
    const made = surveyFromSettings(area, route, HOME);
    const server = await surveyWaypoints(made.grid!, surveyWaypointOptions(route, undefined, HOME));
    expect(gridWaypoints(grid, route)).toEqual(server.waypoints);
    expect(editor.estTime).toBe(routeEstimate({ ...route, waypoints: server.waypoints }, HOME).est_time);
  });
});

describe('planning input is refused out of range, never clamped', () => {
  const route: RouteDraft = { ...DEFAULT_ROUTE, mission_type: 1, fence_id: 'F', waypoints: [] };

  it('keeps a value typed out of range and lists it with the range from contracts', () => {
    const s = new WorkStore();
    s.reset({ fence: null, fenceId: 'F', routeItem: route });
    s.setRoute({ auto_speed: 0, default_height: 0 });
    expect(s.get().routeItem).toMatchObject({ auto_speed: 0, default_height: 0 });
    expect(missionLimitIssues(s.get().routeItem!).map((i) => i.text)).toEqual([missionLimitText('auto_speed'), missionLimitText('default_height')]);
    expect(missionLimitIssues(route)).toEqual([]);
    const lim = MISSION_LIMITS.return_height;
    expect(missionLimitIssues({ ...route, return_height: lim.min - 1 }).map((i) => i.code)).toEqual(['route.return_height']);
    expect(missionLimitIssues({ ...route, return_height: lim.min })).toEqual([]);
    expect(missionLimitIssues({ ...route, max_speed: MISSION_LIMITS.max_speed.max + 1 }).map((i) => i.code)).toEqual(['route.max_speed']);
  });

  it('says a field out of range once, with its range (not also the looser geo rule)', () => {
    const s = { ...derive({ fence: null, fenceId: 'F', routeItem: { ...route, auto_speed: 0, waypoints: [{ ...A, height: 50 }, { ...B, height: 50 }] } }) };
    const texts = issueLineTexts(validate('route', s, [], null), 'en');
    expect(texts.filter((t) => t.startsWith('Cruise speed'))).toEqual(['Cruise speed must be 1 to 15 m/s']);
  });
});

describe('issue list', () => {
  it('shows a survey height above the fence once with the count', () => {
    const fence = { name: 'Low', max_height: 50, boundary: [{ lat: 22.49, lng: 113.89 }, { lat: 22.49, lng: 113.92 }, { lat: 22.52, lng: 113.92 }, { lat: 22.52, lng: 113.89 }] };
    const waypoints = [A, B, C, { lat: 22.505, lng: 113.905 }].map((p) => ({ ...p, height: 80 }));
    const issues = validateRoute({ ...DEFAULT_ROUTE, mission_type: 2, waypoints }, fence);
    expect(issues.filter((i) => i.code === 'waypoint.above_fence')).toHaveLength(4);
    expect(issueLineTexts(issues, 'zh')).toEqual(['共 4 个航点的高度 80 米超过围栏最大高度 50 米']);
    expect(issueLineTexts(issues, 'en')).toEqual(["Each of 4 waypoints is at 80 m, above the fence's maximum height of 50 m"]);
  });
});

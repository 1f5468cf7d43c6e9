import { describe, expect, it } from 'vitest';
import { ROUTE_FLIGHT_BUDGET_S, type LatLng, type Mission } from '@nest/contracts';
import { corridorFromSettings, offsetMetres, routeEstimate, splitSurvey, surveyFromSettings } from '@nest/geo';
import { DEFAULT_ROUTE, WorkStore, derive, type RouteDraft } from './store';
import { flightsNeeded, gridWaypoints, stripPreview, validate } from './planning';
import { groupedRoutes } from '../RoutePlanPage';

const O = { lat: 22.5431, lng: 114.0579 };
const at = (east: number, north: number): LatLng => offsetMetres(O, north, east);
const strip = (over: Partial<RouteDraft> = {}): RouteDraft => ({
  ...DEFAULT_ROUTE,
  mission_type: 3,
  fence_id: 'f',
  name: 'Pipeline',
  line: [at(0, 0), at(800, 0), at(800, 600)],
  corridor_width: 90,
  ...over,
});

describe('strip routes in the editor', () => {
  it('draws the centre line as an open list of points with undo', () => {
    const s = new WorkStore();
    s.reset({ fence: null, fenceId: null, routeItem: strip({ line: [] }) });
    s.addPoint('line', at(0, 0));
    s.addPoint('line', at(500, 0));
    s.insertPoint('line', 1, at(250, 50));
    expect(s.points('line')).toEqual([at(0, 0), at(250, 50), at(500, 0)]);
    s.undo();
    expect(s.points('line')).toEqual([at(0, 0), at(500, 0)]);
  });

  it('previews the corridor the server generates: the same lines, the band around them, and the estimate of their waypoints', () => {
    const route = strip();
    const home = at(-100, -100);
    const p = stripPreview(route, home);
    expect(p.grid).not.toBeNull();
    const server = corridorFromSettings(route.line, route.corridor_width, route, home);
    expect(p.grid!.waypoints).toEqual(server.grid!.waypoints);
    // The band is a ring round the line: its points are about width/2 from it, on both sides.
    expect(p.band.length).toBeGreaterThan(4);
    const wps = gridWaypoints(p.grid!, route);
    expect(wps.filter((w) => w.cam_trig_dist === 0)).toHaveLength(p.grid!.transects.length);
    const state = derive({ fence: null, fenceId: 'f', routeItem: { ...route, waypoints: wps }, home });
    expect(state.estTime).toBe(routeEstimate({ ...route, waypoints: wps }, home).est_time);
  });

  it('answers no grid before the line has two points, and the camera issues of a custom camera', () => {
    expect(stripPreview(strip({ line: [at(0, 0)] })).grid).toBeNull();
    const custom = strip({ camera_type: 'custom' });
    expect(stripPreview(custom).issues.length).toBeGreaterThan(0);
    const issues = validate('strip', derive({ fence: null, fenceId: 'f', routeItem: { ...custom, waypoints: [{ ...at(0, 0), height: 100 }] } }), [], null);
    expect(issues.map((i) => i.code)).toEqual(expect.arrayContaining(['camera.sensor_width', 'camera.focal_length']));
  });

  it('counts the flights a long survey takes as the server splits it', () => {
    const area = [at(0, 0), at(1500, 0), at(1500, 1500), at(0, 1500)];
    const route: RouteDraft = { ...DEFAULT_ROUTE, mission_type: 2, fence_id: 'f', name: 'S', area };
    const home = at(-50, -50);
    const grid = surveyFromSettings(area, route, home).grid!;
    const n = flightsNeeded(grid, route, home);
    const parts = splitSurvey(grid, { budgetS: ROUTE_FLIGHT_BUDGET_S, speed: route.auto_speed, maxSpeed: route.max_speed, returnHeight: route.return_height, finishAction: route.finish_action, takeoff: home });
    expect(n).toBe(parts.length);
    expect(n).toBeGreaterThan(1);
    const small = surveyFromSettings([at(0, 0), at(200, 0), at(200, 200)], route, home).grid!;
    expect(flightsNeeded(small, route, home)).toBe(1);
  });
});

describe('the route list', () => {
  const m = (id: string, group: string | null, index: number | null): Mission =>
    ({ id, name: id, group_id: group, group_index: index, group_count: group ? 3 : null }) as unknown as Mission;

  it("lists a split survey's parts together in part order where its first listed part is", () => {
    const list = [m('a', null, null), m('p3', 'g', 3), m('b', null, null), m('p1', 'g', 1), m('p2', 'g', 2), m('c', null, null)];
    expect(groupedRoutes(list).map((x) => x.id)).toEqual(['a', 'p1', 'p2', 'p3', 'b', 'c']);
  });
});

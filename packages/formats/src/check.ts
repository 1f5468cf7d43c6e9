import type { LatLng, Text, Waypoint } from '@nest/contracts';
import { WAYPOINT_LIMITS, waypointSchema } from '@nest/contracts';
import { distinctCount, openRing, ringArea, samePoint, selfIntersects } from './geometry.js';
import type { PlanDocument, PlanFence, PlanNoFly, PlanRoute, PlanSurvey } from './model.js';
import { T } from './texts.js';

/**
 * SPEC section 5: "the imported file must match the task type and be a complete fence". A fence task
 * takes the file's first fence, a waypoint task its first waypoint route, a survey task its first survey
 * area (or, failing that, its first plain polygon). The chosen item must be usable as it is: a fence or
 * area is a ring of at least 3 distinct points with a non-zero area that does not cross itself; a route
 * has 2 to WAYPOINT_LIMITS.maxWaypoints waypoints that satisfy the contracts' waypoint schema. A no-fly
 * import ('nofly') takes every zone of the file whose polygon is a complete ring (circles are checked when
 * read).
 */

export type TaskKind = 'fence' | 'waypoint' | 'survey' | 'nofly';
export type TaskItem<K extends TaskKind> = K extends 'fence'
  ? PlanFence
  : K extends 'waypoint'
    ? PlanRoute
    : K extends 'nofly'
      ? PlanNoFly[]
      : PlanSurvey;
export type TaskCheck<K extends TaskKind> =
  | { ok: true; kind: K; item: TaskItem<K>; warnings: Text[] }
  | { ok: false; error: Text };

export interface CheckOptions {
  /** Most vertices of a fence or area (the self-crossing test is quadratic); default 10,000. */
  maxRingPoints?: number;
  /** Smallest area (m2) that is not degenerate; default 1. */
  minArea?: number;
}

/** Why a ring is not a complete fence, or null when it is. */
export function ringProblem(name: string, ring: LatLng[], opts: CheckOptions = {}): Text | null {
  const open = openRing(ring);
  const distinct = distinctCount(open);
  if (distinct < 3) return T.fenceTooFewPoints(name, distinct);
  if (open.length > (opts.maxRingPoints ?? 10_000)) return T.fenceTooManyPoints(name, opts.maxRingPoints ?? 10_000);
  if (selfIntersects(open)) return T.fenceSelfIntersecting(name);
  if (ringArea(open) < (opts.minArea ?? 1)) return T.fenceDegenerate(name);
  return null;
}

function routeProblem(r: PlanRoute): Text | null {
  const n = r.waypoints.length;
  if (n < 2) return T.routeTooFewWaypoints(r.name, n);
  if (n > WAYPOINT_LIMITS.maxWaypoints) return T.routeTooManyWaypoints(r.name, n, WAYPOINT_LIMITS.maxWaypoints);
  for (let i = 0; i < n; i++) {
    const w = r.waypoints[i]!;
    if (!(w.height > 0 && w.height <= WAYPOINT_LIMITS.heightMax)) return T.waypointHeight(r.name, i, w.height, WAYPOINT_LIMITS.heightMax);
    const parsed = waypointSchema.safeParse(w);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return T.waypointInvalid(r.name, i, `${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
    }
  }
  return null;
}

/**
 * The route as the console stores it: waypoints with the contracts' fields only (what a file said beyond
 * them, PlanWaypoint's extras, the take-off and landing places, stays in the document for export; the
 * reader's notes said what each one means for the console).
 */
function consoleRoute(r: PlanRoute): PlanRoute {
  const waypoints = r.waypoints.map((w): Waypoint => {
    const { alt_mode: _m, amsl: _a, file_alt: _f, hold: _h, loiter: _l, roi: _r, aimed: _i, ...plain } = w;
    return plain;
  });
  const { takeoff: _t, land_at: _la, ...rest } = r;
  return { ...rest, waypoints };
}

const contents = (doc: PlanDocument): Text => T.contents(doc.fences.length, doc.routes.length, doc.surveys.length, doc.noFlyZones?.length ?? 0, doc.corridors?.length ?? 0);

export function checkAgainstTask<K extends TaskKind>(doc: PlanDocument, kind: K, opts: CheckOptions = {}): TaskCheck<K> {
  const warnings: Text[] = [];
  const ok = (item: PlanFence | PlanRoute | PlanSurvey | PlanNoFly[]): TaskCheck<K> => ({ ok: true, kind, item: item as TaskItem<K>, warnings });
  const err = (error: Text): TaskCheck<K> => ({ ok: false, error });

  if (kind === 'fence') {
    let fences = doc.fences;
    if (!fences.length) {
      // A closed line drawn around an area (first point = last point) is a fence drawn as a path.
      const closed = doc.routes.filter((r) => r.waypoints.length >= 4 && samePoint(r.waypoints[0]!, r.waypoints[r.waypoints.length - 1]!));
      fences = closed.map((r) => ({ name: r.name, boundary: openRing(r.waypoints.map(({ lat, lng }) => ({ lat, lng }))) }));
      if (fences[0]) warnings.push(T.closedLineAsFence(fences[0].name));
    }
    const fence = fences[0];
    if (!fence) {
      if (doc.routes.length === 1 && !doc.surveys.length) return err(T.lineNotClosed(doc.routes[0]!.name));
      return err(T.noFence(contents(doc)));
    }
    if (fences.length > 1) warnings.push(T.onlyFirstUsed('fence', fences.length, fence.name));
    const problem = ringProblem(fence.name, fence.boundary, opts);
    return problem ? err(problem) : ok({ ...fence, boundary: openRing(fence.boundary) });
  }

  if (kind === 'nofly') {
    // Every usable zone of the file (a no-fly import takes them all); a polygon that is no complete ring is
    // skipped with its reason.
    const zones: PlanNoFly[] = [];
    for (const z of doc.noFlyZones ?? []) {
      const problem = z.center ? null : ringProblem(z.name, z.boundary, opts);
      if (problem) warnings.push(problem);
      else zones.push(z.center ? z : { ...z, boundary: openRing(z.boundary) });
    }
    if (!zones.length) return err(warnings[0] ?? T.noNoFly(contents(doc)));
    return ok(zones);
  }

  if (kind === 'waypoint') {
    const routes = doc.routes.filter((r) => r.mission_type !== 2);
    if (!routes.length) return err(T.noRoute(contents(doc)));
    const route = routes.find((r) => r.waypoints.length >= 2) ?? routes[0]!;
    if (routes.length > 1) warnings.push(T.onlyFirstUsed('route', routes.length, route.name));
    const problem = routeProblem(route);
    return problem ? err(problem) : ok(consoleRoute(route));
  }

  let survey: PlanSurvey | undefined = doc.surveys[0];
  if (survey && doc.surveys.length > 1) warnings.push(T.onlyFirstUsed('survey', doc.surveys.length, survey.name));
  if (!survey && doc.fences[0]) {
    survey = { name: doc.fences[0].name, polygon: doc.fences[0].boundary };
    warnings.push(T.fenceAsSurvey(survey.name));
  }
  if (!survey) return err(T.noSurvey(contents(doc)));
  const problem = ringProblem(survey.name, survey.polygon, opts);
  return problem ? err(problem) : ok({ ...survey, polygon: openRing(survey.polygon) });
}

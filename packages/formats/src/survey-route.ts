import type { Text } from '@nest/contracts';
import type { TerrainProvider } from '@nest/geo';
import { surveyFromSettings, surveyWaypointOptions, surveyWaypoints } from '@nest/geo';
import type { PlanRoute, PlanSurvey } from './model.js';
import { T } from './texts.js';

/** Settings a survey area's route is generated with where the file gave none (the route editor's defaults). */
export const SURVEY_ROUTE_DEFAULTS = {
  default_height: 100,
  course_overlap: 80,
  lateral_overlap: 70,
  angle: 0,
  turn_distance: 0,
  photo_type: 2,
  height_type: 0,
  auto_speed: 10,
  interval_height: 0,
} as const;

/**
 * The route @nest/geo generates for a survey area (surveyFromSettings, then surveyWaypoints): a mission
 * type 2 route with photos by distance, so a writer that flies waypoints (DJI WPML) can carry a survey.
 * The camera is the area's (a custom camera when it gives sensor and focal length, else its camera type,
 * else the 6K camera); missing settings take SURVEY_ROUTE_DEFAULTS. With `elevation` and no terrain the
 * heights are over flat ground and the answer's note says so.
 */
export async function surveyRoute(
  survey: PlanSurvey,
  terrain?: TerrainProvider,
): Promise<{ ok: true; route: PlanRoute; note?: Text } | { ok: false; error: Text }> {
  const p = survey.params ?? {};
  const custom = p.sensor_width !== undefined && p.focal_length !== undefined;
  const settings = {
    ...SURVEY_ROUTE_DEFAULTS,
    ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== null)),
    camera_type: p.camera_type ?? (custom ? ('custom' as const) : ('6k' as const)),
    elevation: p.elevation === true,
  };
  try {
    const made = surveyFromSettings(survey.polygon, settings);
    if (!made.grid) return { ok: false, error: T.surveyNoRoute(survey.name, made.issues.map((i) => i.text.en).join('; ')) };
    const { waypoints, note } = await surveyWaypoints(made.grid, surveyWaypointOptions(settings, terrain));
    if (waypoints.length === 0) return { ok: false, error: T.surveyNoRoute(survey.name, 'the area holds no survey line') };
    const route: PlanRoute = {
      name: survey.name,
      mission_type: 2,
      height_type: p.height_type === 1 ? 1 : 0,
      waypoints,
      settings: {
        auto_speed: settings.auto_speed,
        default_height: settings.default_height,
        ...(p.finish_action !== undefined ? { finish_action: p.finish_action } : {}),
        ...(settings.elevation ? { elevation: true } : {}),
      },
    };
    // Without terrain following the heights are meant over the take-off point's level: no note is due.
    return note && settings.elevation ? { ok: true, route, note } : { ok: true, route };
  } catch (e) {
    return { ok: false, error: T.surveyNoRoute(survey.name, e instanceof Error ? e.message : String(e)) };
  }
}

import { finishActionFrom } from './build.js';
import { finiteOrUndefined } from './limits.js';
import type { HeightTypeValue, SurveyParams } from './model.js';
import { SURVEY_NUMERIC_PARAMS } from './model.js';

/**
 * Survey settings from name/value pairs as our KML ExtendedData and the WPML survey marker write them
 * (the model's names; numbers as text, booleans as true/false or 1/0).
 */
export function surveyParamsOf(ext: ReadonlyMap<string, string>): SurveyParams | undefined {
  const p: SurveyParams = {};
  for (const k of SURVEY_NUMERIC_PARAMS) {
    const v = finiteOrUndefined(ext.get(k));
    if (v !== undefined) p[k] = v;
  }
  const ht = ext.get('height_type');
  if (ht === '0' || ht === '1') p.height_type = Number(ht) as HeightTypeValue;
  const fa = finishActionFrom(ext.get('finish_action'));
  if (fa) p.finish_action = fa;
  const cam = ext.get('camera_type');
  if (cam === 'custom' || cam === '6k' || cam === 'dual_light') p.camera_type = cam;
  const camName = ext.get('camera_name');
  if (camName) p.camera_name = camName;
  const el = ext.get('elevation');
  if (el !== undefined) p.elevation = el === 'true' || el === '1';
  const photo = ext.get('photo_type');
  if (photo === '1' || photo === '2' || photo === '3') p.photo_type = Number(photo) as 1 | 2 | 3;
  return Object.keys(p).length ? p : undefined;
}

import { DOMParser } from '@xmldom/xmldom';
import type { Element } from '@xmldom/xmldom';
import { unzipSync } from 'fflate';

/**
 * What the emulated drone reads from a wayline `.kmz` (DJI WPML): a zip holding `wpmz/template.kml` and
 * `wpmz/waylines.wpml`; the drone flies `waylines.wpml`. Placemark coordinates are `lng,lat` (longitude
 * first), heights are `executeHeight` in the folder's `executeHeightMode`, speeds `waypointSpeed` (else the
 * folder's `autoFlightSpeed`), and a `takePhoto` action in a placemark's action group takes one photo there.
 */
export interface WaylinePoint {
  index: number;
  lat: number;
  lng: number;
  /** Metres in the folder's height mode. */
  height: number;
  /** m/s towards this point. */
  speed: number;
  photos: number;
}

export interface Wayline {
  droneEnumValue: number;
  droneSubEnumValue: number;
  /** WGS84 (ellipsoid heights) or relativeToStartPoint / realTimeFollowSurface (above the take-off point). */
  heightMode: string;
  takeOffSecurityHeight: number;
  autoFlightSpeed: number;
  waylineId: number;
  points: WaylinePoint[];
}

/** Refusal of a file that is not a wayline kmz, with the reason for the log. */
export class KmzError extends Error {}

const MAX_ENTRIES = 200;
const MAX_INFLATED = 64 * 1024 * 1024;

/** Elements under `el` with this local name, in document order (any namespace prefix). */
function elements(el: Element, local: string): Element[] {
  return Array.from(el.getElementsByTagName('*')).filter((e) => e.localName === local);
}

function childElements(el: Element, local: string): Element[] {
  return Array.from(el.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).localName === local);
}

function childNumber(el: Element | undefined, local: string): number | undefined {
  if (!el) return undefined;
  const c = childElements(el, local)[0];
  const text = c?.textContent?.trim();
  if (!text) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

const childText = (el: Element | undefined, local: string): string | undefined => (el ? childElements(el, local)[0]?.textContent?.trim() : undefined);

/** Reads the waylines of a kmz; throws KmzError when the structure is not a DJI wayline file. */
export function readWaylineKmz(bytes: Uint8Array): Wayline {
  let files: Record<string, Uint8Array>;
  try {
    let count = 0;
    let declared = 0;
    files = unzipSync(bytes, {
      filter: (f) => {
        count++;
        declared += f.originalSize;
        if (count > MAX_ENTRIES || declared > MAX_INFLATED) throw new KmzError('archive too large');
        return f.name === 'wpmz/template.kml' || f.name === 'wpmz/waylines.wpml';
      },
    });
  } catch (e) {
    throw e instanceof KmzError ? e : new KmzError(`not a zip: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!files['wpmz/template.kml']) throw new KmzError('no wpmz/template.kml');
  const waylines = files['wpmz/waylines.wpml'];
  if (!waylines) throw new KmzError('no wpmz/waylines.wpml');

  const text = new TextDecoder('utf-8').decode(waylines);
  let root: Element | null;
  try {
    root = new DOMParser().parseFromString(text, 'text/xml').documentElement;
  } catch (e) {
    throw new KmzError(`waylines.wpml is not XML: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!root) throw new KmzError('waylines.wpml is empty');
  const missionConfig = elements(root, 'missionConfig')[0];
  if (!missionConfig) throw new KmzError('no wpml:missionConfig');
  const droneInfo = childElements(missionConfig, 'droneInfo')[0];
  const droneEnumValue = childNumber(droneInfo, 'droneEnumValue');
  const droneSubEnumValue = childNumber(droneInfo, 'droneSubEnumValue') ?? 0;
  if (droneEnumValue === undefined) throw new KmzError('no wpml:droneInfo');

  const folder = elements(root, 'Folder')[0];
  if (!folder) throw new KmzError('no Folder');
  const autoFlightSpeed = childNumber(folder, 'autoFlightSpeed') ?? 10;
  const points: WaylinePoint[] = [];
  for (const pm of childElements(folder, 'Placemark')) {
    const coords = childText(childElements(pm, 'Point')[0], 'coordinates');
    if (!coords) continue;
    const [lng, lat] = coords.split(',').map((s) => Number(s.trim()));
    if (lng === undefined || lat === undefined || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      throw new KmzError(`bad coordinates: ${coords}`);
    }
    const height = childNumber(pm, 'executeHeight');
    if (height === undefined) throw new KmzError('placemark without wpml:executeHeight');
    const photos = childElements(pm, 'actionGroup')
      .flatMap((g) => childElements(g, 'action'))
      .filter((a) => childText(a, 'actionActuatorFunc') === 'takePhoto').length;
    points.push({
      index: childNumber(pm, 'index') ?? points.length,
      lat,
      lng,
      height,
      speed: childNumber(pm, 'waypointSpeed') ?? autoFlightSpeed,
      photos,
    });
  }
  if (points.length === 0) throw new KmzError('no waypoints');
  points.sort((a, b) => a.index - b.index);
  return {
    droneEnumValue,
    droneSubEnumValue,
    heightMode: childText(folder, 'executeHeightMode') ?? 'relativeToStartPoint',
    takeOffSecurityHeight: childNumber(missionConfig, 'takeOffSecurityHeight') ?? 20,
    autoFlightSpeed,
    waylineId: childNumber(folder, 'waylineId') ?? 0,
    points,
  };
}

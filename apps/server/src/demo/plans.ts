import { demoText, type LatLng, type Waypoint } from '@nest/contracts';

/**
 * The demo fence and routes of one simulated nest, as the console would send them (form field values).
 * Pure geometry: metres east/north of the nest converted with a local flat-earth approximation (the
 * shapes are at most a few kilometres across, where the error is far below a metre).
 */
export type { LatLng };

const M_LAT = 111_320;
export const offsetM = (origin: LatLng, east: number, north: number): LatLng => ({
  lat: Number((origin.lat + north / M_LAT).toFixed(7)),
  lng: Number((origin.lng + east / (M_LAT * Math.cos((origin.lat * Math.PI) / 180))).toFixed(7)),
});

/** Fence radius around the nest (m): the octagon's corners lie this far out. */
export const FENCE_RADIUS_M = 1_200;

/** "A01" from a simulated nest name like "机场 A01"; the sn's tail otherwise. */
export function labelOf(name: string, sn: string): string {
  const m = /([A-Z]\d{2,})\s*$/.exec(name);
  return m ? m[1]! : sn.slice(-6);
}

/** Names of a nest's demo objects: contracts demo texts, stored in Chinese ("巡检 A01"), shown in the reader's language. */
export const demoNames = (label: string) => ({
  fence: demoText('plan.fence', { label }),
  patrol: demoText('plan.patrol', { label }),
  survey: demoText('plan.survey', { label }),
});

/** An octagon of FENCE_RADIUS_M around the nest (open ring). */
export function fenceRing(home: LatLng): LatLng[] {
  return Array.from({ length: 8 }, (_, i) => {
    const a = ((i * 45 + 22.5) * Math.PI) / 180;
    return offsetM(home, FENCE_RADIUS_M * Math.cos(a), FENCE_RADIUS_M * Math.sin(a));
  });
}

/**
 * A waypoint patrol loop of 7 waypoints, 250-550 m from the nest at 60-100 m: a gimbal pitch down to -45
 * at the start, photos at most waypoints, one panorama (with a hover) at the far corner, nadir at the end.
 */
export function patrolWaypoints(home: LatLng): Waypoint[] {
  const legs: [number, number, number][] = [
    [300, 0, 60],
    [450, 250, 70],
    [300, 500, 80],
    [0, 550, 100],
    [-300, 400, 90],
    [-400, 100, 80],
    [-150, -250, 70],
  ];
  return legs.map(([e, n, h], i) => {
    const p = offsetM(home, e, n);
    const wp: Waypoint = { lat: p.lat, lng: p.lng, height: h };
    if (i === 0) wp.gimbal_ctrl = { pitch: -45, yaw: 0 };
    if (i === 3) {
      wp.takephoto = 2;
      wp.hover = 5;
    } else if (i !== 0) wp.takephoto = 1;
    if (i === legs.length - 1) wp.gimbal_ctrl = { pitch: -90, yaw: 0 };
    return wp;
  });
}

/** A survey area of about 300 x 200 m, 300-600 m south-east of the nest (inside the fence). */
export function surveyArea(home: LatLng): LatLng[] {
  return [offsetM(home, 300, -500), offsetM(home, 600, -500), offsetM(home, 600, -300), offsetM(home, 300, -300)];
}

/** Radius (m) of a demo company's no-fly circle (a school). */
export const DEMO_NO_FLY_RADIUS_M = 120;

/**
 * Where a nest's demo no-fly circle may go, in order of preference: 800 m out, south-west first, then
 * round the compass. The patrol loop keeps within 550 m on the north side and the survey lies 300-600 m
 * south-east, so the south-west spot is clear of the nest's own routes; the seed takes the first spot
 * that no demo route of the company and no nest of it enters.
 */
export function noFlySpots(home: LatLng): LatLng[] {
  return [225, 270, 180, 135, 315, 90, 45, 0].map((deg) => {
    const a = (deg * Math.PI) / 180;
    return offsetM(home, 800 * Math.sin(a), 800 * Math.cos(a));
  });
}

/** Form fields of /nofly/add for the demo school circle (every device of the company, no end date). */
export const noFlyFields = (label: string, center: LatLng) => ({
  name: demoText('plan.noFly', { label }),
  reason: demoText('plan.noFlyReason'),
  shape: '2',
  center: JSON.stringify(center),
  radius: String(DEMO_NO_FLY_RADIUS_M),
});

/** Form fields of /fence/add. */
export const fenceFields = (name: string, sn: string, home: LatLng) => ({
  name,
  max_height: '150',
  boundary: JSON.stringify(fenceRing(home)),
  sn_id: sn,
});

/** Form fields of /mission/add for the patrol route (finish action 20: return home). */
export const patrolFields = (name: string, fenceId: string, home: LatLng) => ({
  name,
  fence_id: fenceId,
  mission_type: '1',
  auto_speed: '8',
  max_speed: '12',
  default_height: '80',
  return_height: '100',
  finish_action: '20',
  waypoints: JSON.stringify(patrolWaypoints(home)),
});

/** Form fields of /mission/add for the area survey (mission type 2, 6K camera; the server makes the grid). */
export const surveyFields = (name: string, fenceId: string, home: LatLng) => ({
  name,
  fence_id: fenceId,
  mission_type: '2',
  auto_speed: '8',
  max_speed: '12',
  default_height: '80',
  return_height: '100',
  finish_action: '20',
  camera_type: '6k',
  course_overlap: '80',
  lateral_overlap: '70',
  waypoints: '[]',
  polygon: JSON.stringify(surveyArea(home)),
});

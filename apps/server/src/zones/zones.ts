import { ZoneKind, ZoneType, type LatLng, type Zone } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Zone kinds (contracts ZoneType, the zones resource's `type`): routes keep out of no-fly and restricted zones. */
export const ZONE_NO_FLY = ZoneKind.NO_FLY;
export const ZONE_RESTRICTED = ZoneKind.RESTRICTED;
export const ZONE_WORK = ZoneKind.WORK;

export const ZONE_TYPES = ZoneType.entries;

export type ZoneAnswer = Zone;

const style = {
  [ZONE_NO_FLY]: { stroke_color: '#e5484d', solid_color: 'rgba(229,72,77,0.25)', stroke_width: 2 },
  [ZONE_RESTRICTED]: { stroke_color: '#f5a623', solid_color: 'rgba(245,166,35,0.2)', stroke_width: 2 },
  [ZONE_WORK]: { stroke_color: '#30a46c', solid_color: 'rgba(48,164,108,0.15)', stroke_width: 1 },
} as const;

/**
 * The border strip's centre line, west to east: from the river mouth in Shenzhen Bay past Futian and
 * Huanggang to Luohu, about 1.4 km south of the southernmost demo fence's edge at its nearest.
 */
const BORDER_RIVER: readonly LatLng[] = [
  { lat: 22.504, lng: 113.998 },
  { lat: 22.5085, lng: 114.015 },
  { lat: 22.51, lng: 114.035 },
  { lat: 22.5092, lng: 114.052 },
  { lat: 22.51, lng: 114.068 },
  { lat: 22.5098, lng: 114.085 },
  { lat: 22.513, lng: 114.098 },
  { lat: 22.52, lng: 114.108 },
  { lat: 22.529, lng: 114.114 },
];

/** Half the strip's width, in degrees of latitude (about 150 m). */
const BORDER_HALF_WIDTH_DEG = 0.00135;

/** A strip along a west-to-east line: its north edge eastwards, then its south edge back (a concave ring). */
const stripAlong = (line: readonly LatLng[], half: number): LatLng[] => [
  ...line.map((p) => ({ lat: Number((p.lat + half).toFixed(5)), lng: p.lng })),
  ...[...line].reverse().map((p) => ({ lat: Number((p.lat - half).toFixed(5)), lng: p.lng })),
];

/**
 * Demo zones near the simulated fleet (22.5431, 114.0579). Illustrative shapes, not official airspace
 * data: an airport no-fly zone around Shenzhen Bao'an airport to the north-west, a restricted strip
 * along the Shenzhen river border south of the fleet, and a work zone around the fleet. The demo fences
 * and routes of the default simulated nests keep out of the no-fly and restricted zones (demo.test.ts
 * seeds them and checks every route against these zones).
 */
export const DEMO_ZONES: readonly ZoneAnswer[] = [
  {
    id: 'demo-no-fly-airport',
    name: { zh: '宝安机场（演示）', en: "Bao'an airport (demo)" },
    type: ZONE_NO_FLY,
    paths: [
      { lat: 22.665, lng: 113.775 },
      { lat: 22.67, lng: 113.84 },
      { lat: 22.612, lng: 113.848 },
      { lat: 22.607, lng: 113.783 },
    ],
    ...style[ZONE_NO_FLY],
  },
  {
    id: 'demo-restricted-border',
    name: { zh: '深圳河边境（演示）', en: 'Shenzhen River border (demo)' },
    type: ZONE_RESTRICTED,
    paths: stripAlong(BORDER_RIVER, BORDER_HALF_WIDTH_DEG),
    ...style[ZONE_RESTRICTED],
  },
  {
    id: 'demo-work-fleet',
    name: { zh: '机队作业区（演示）', en: 'Fleet work area (demo)' },
    type: ZONE_WORK,
    paths: [
      { lat: 22.555, lng: 114.045 },
      { lat: 22.555, lng: 114.071 },
      { lat: 22.532, lng: 114.071 },
      { lat: 22.532, lng: 114.045 },
    ],
    ...style[ZONE_WORK],
  },
];

/**
 * Public zones: the demo set plus rows of the zones table without a company. A stored row has one name
 * column: it is shown as is in both languages.
 */
export async function publicZones(db: Kysely<DB>): Promise<ZoneAnswer[]> {
  const rows = await db.selectFrom('zones').selectAll().where('company_id', 'is', null).orderBy('id').execute();
  const stored = rows.flatMap((r): ZoneAnswer[] => {
    try {
      return [
        {
          id: r.id,
          name: { zh: r.name, en: r.name },
          type: Number(r.type),
          paths: JSON.parse(r.paths) as ZoneAnswer['paths'],
          stroke_color: r.stroke_color,
          solid_color: r.solid_color,
          stroke_width: Number(r.stroke_width),
        },
      ];
    } catch {
      return [];
    }
  });
  return [...DEMO_ZONES, ...stored];
}

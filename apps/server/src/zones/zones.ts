import type { ZonePolygon } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Zone kinds (zonePolygonSchema `type`, "defined by the zone service"): */
export const ZONE_NO_FLY = 1;
export const ZONE_RESTRICTED = 2;
export const ZONE_WORK = 3;

export const ZONE_TYPES = [
  { value: ZONE_NO_FLY, label: { zh: '禁飞区', en: 'No-fly zone' } },
  { value: ZONE_RESTRICTED, label: { zh: '限飞区', en: 'Restricted zone' } },
  { value: ZONE_WORK, label: { zh: '作业区', en: 'Work zone' } },
] as const;

export type ZoneAnswer = ZonePolygon & { name: string };

const style = {
  [ZONE_NO_FLY]: { stroke_color: '#e5484d', solid_color: 'rgba(229,72,77,0.25)', stroke_width: 2 },
  [ZONE_RESTRICTED]: { stroke_color: '#f5a623', solid_color: 'rgba(245,166,35,0.2)', stroke_width: 2 },
  [ZONE_WORK]: { stroke_color: '#30a46c', solid_color: 'rgba(48,164,108,0.15)', stroke_width: 1 },
} as const;

/**
 * Demo zones near the simulated fleet (22.5431, 114.0579). Illustrative shapes, not official airspace
 * data: an airport no-fly zone around Shenzhen Bao'an airport to the north-west, a restricted strip
 * along the Shenzhen river border crossing to the south-east, and a work zone around the fleet.
 */
export const DEMO_ZONES: readonly ZoneAnswer[] = [
  {
    id: 'demo-no-fly-airport',
    name: 'Airport no-fly zone (demo)',
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
    name: 'Border restricted zone (demo)',
    type: ZONE_RESTRICTED,
    paths: [
      { lat: 22.522, lng: 114.06 },
      { lat: 22.527, lng: 114.09 },
      { lat: 22.517, lng: 114.093 },
      { lat: 22.512, lng: 114.062 },
    ],
    ...style[ZONE_RESTRICTED],
  },
  {
    id: 'demo-work-fleet',
    name: 'Fleet work zone (demo)',
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

/** Public zones: the demo set plus rows of the zones table without a company. */
export async function publicZones(db: Kysely<DB>): Promise<ZoneAnswer[]> {
  const rows = await db.selectFrom('zones').selectAll().where('company_id', 'is', null).orderBy('id').execute();
  const stored = rows.flatMap((r): ZoneAnswer[] => {
    try {
      return [
        {
          id: r.id,
          name: r.name,
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

import path from 'node:path';
import type { MapPackage, MapPackageContainer, MapPackageFormat, MapPackageKind, VectorLayer } from '@nest/contracts';
import type { MapPackageRow } from '../../db/schema.js';

/** Where packages are kept: DATA_DIR/tiles/packages/<id>.<container> (ids are uuids the server made). */
export const packagesDir = (dataDir: string): string => path.join(dataDir, 'tiles', 'packages');
export const packageFile = (dataDir: string, row: Pick<MapPackageRow, 'id' | 'container'>): string =>
  path.join(packagesDir(dataDir), `${row.id}.${row.container}`);

export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A row as /map/packageList answers it. */
export const presentPackage = (row: MapPackageRow, uName: string | null): MapPackage => ({
  id: row.id,
  company_id: row.company_id,
  name: row.name,
  container: row.container as MapPackageContainer,
  kind: row.kind as MapPackageKind,
  format: row.format as MapPackageFormat,
  min_lat: row.min_lat,
  min_lng: row.min_lng,
  max_lat: row.max_lat,
  max_lng: row.max_lng,
  min_zoom: row.min_zoom,
  max_zoom: row.max_zoom,
  size: Number(row.size),
  attribution: row.attribution,
  u_id: row.u_id,
  u_name: uName ?? '',
  create_time: Number(row.create_time),
});

export function vectorLayersOfRow(row: Pick<MapPackageRow, 'vector_layers'>): VectorLayer[] {
  try {
    const v = JSON.parse(row.vector_layers) as unknown;
    return Array.isArray(v) ? (v as VectorLayer[]) : [];
  } catch {
    return [];
  }
}

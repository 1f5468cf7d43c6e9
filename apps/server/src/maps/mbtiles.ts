import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * An MBTiles 1.3 file (SQLite): `metadata(name, value)` and `tiles(zoom_level, tile_column, tile_row,
 * tile_data)` with TMS rows (row 0 at the south), tile_data gzip'd PBF. Tiles known to be empty are kept
 * in an extra table `empty_tiles` (same key) so they are not cut again; MBTiles readers ignore it.
 */
export class MbTiles {
  readonly db: SQLite.Database;
  private readonly getStmt: SQLite.Statement<[number, number, number], { tile_data: Buffer }>;
  private readonly emptyStmt: SQLite.Statement<[number, number, number], { one: number }>;
  private readonly putStmt: SQLite.Statement<[number, number, number, Buffer]>;
  private readonly putEmptyStmt: SQLite.Statement<[number, number, number]>;

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new SQLite(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS metadata (name TEXT PRIMARY KEY, value TEXT);
      CREATE TABLE IF NOT EXISTS tiles (
        zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL,
        PRIMARY KEY (zoom_level, tile_column, tile_row));
      CREATE TABLE IF NOT EXISTS empty_tiles (
        zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
        PRIMARY KEY (zoom_level, tile_column, tile_row));
    `);
    this.getStmt = this.db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?');
    this.emptyStmt = this.db.prepare('SELECT 1 AS one FROM empty_tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?');
    this.putStmt = this.db.prepare('INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)');
    this.putEmptyStmt = this.db.prepare('INSERT OR IGNORE INTO empty_tiles (zoom_level, tile_column, tile_row) VALUES (?, ?, ?)');
  }

  /** XYZ y (row 0 at the north) to the TMS row MBTiles stores. */
  static tmsRow(z: number, y: number): number {
    return 2 ** z - 1 - y;
  }

  /** The stored gzip'd tile, 'empty' when known to be empty, undefined when not cut yet. */
  get(z: number, x: number, y: number): Buffer | 'empty' | undefined {
    const row = MbTiles.tmsRow(z, y);
    const hit = this.getStmt.get(z, x, row);
    if (hit) return hit.tile_data;
    return this.emptyStmt.get(z, x, row) ? 'empty' : undefined;
  }

  put(z: number, x: number, y: number, gzipped: Buffer | null): void {
    const row = MbTiles.tmsRow(z, y);
    if (gzipped) this.putStmt.run(z, x, row, gzipped);
    else this.putEmptyStmt.run(z, x, row);
  }

  getMeta(name: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM metadata WHERE name = ?').get(name) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(values: Readonly<Record<string, string>>): void {
    const stmt = this.db.prepare('INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const [k, v] of Object.entries(values)) stmt.run(k, v);
    })();
  }

  /** Runs `fn` in one transaction (bulk writes of the builder). */
  transaction(fn: () => void): void {
    this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}

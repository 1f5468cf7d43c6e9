import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

export type Database = Kysely<DB>;
export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
}

export const SQLITE_FILE = 'nest.sqlite';
/** How long a new PostgreSQL connection may take before the query fails as "database unavailable". */
export const DB_CONNECT_TIMEOUT_MS = 10_000;
/**
 * How long a PostgreSQL query may wait for its answer before it fails as "database unavailable": a database
 * that freezes mid-query (stopped process, lost network without a reset) would otherwise hold the call,
 * and its pooled connection, for ever. Far above any query of this product; migrations included.
 */
export const DB_QUERY_TIMEOUT_MS = 30_000;

/** int8 (bigint: our time columns, COUNT(*)) as a JS number; values stay far below 2^53. */
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Opens the database: PostgreSQL when a URL is given, else the SQLite file DATA_DIR/nest.sqlite
 * (WAL journal, foreign keys on, busy timeout so the CLI and the server can share the file).
 */
export function openDatabase(opts: { databaseUrl: string | null; dataDir: string; queryTimeoutMs?: number }): DatabaseHandle {
  if (opts.databaseUrl) {
    // A database host that accepts the connection but never answers (frozen, half-open network) fails the
    // connect after DB_CONNECT_TIMEOUT_MS, and a query on an open connection after DB_QUERY_TIMEOUT_MS,
    // instead of holding the request forever.
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      types: pgTypes,
      connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
      query_timeout: opts.queryTimeoutMs ?? DB_QUERY_TIMEOUT_MS,
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    return { kind: 'postgres', db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }) };
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(path.join(opts.dataDir, SQLITE_FILE));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.pragma('synchronous = NORMAL');
  return { kind: 'sqlite', db: new Kysely<DB>({ dialect: new SqliteDialect({ database: reusingStatements(file) }) }) };
}

/** Prepared statements kept by SQL text, at most this many (lists of `in (?, …)` make many texts). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite file with its prepared statements kept for reuse: preparing a statement costs more than
 * running most of our queries, and the same few texts run on every call. A statement runs to its end
 * synchronously (all, run), so one is never busy when asked for again; iterating gets its own.
 */
function reusingStatements(file: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    close: () => file.close(),
    prepare(text) {
      let statement = kept.get(text);
      if (!statement) {
        const prepared = file.prepare(text);
        statement = { reader: prepared.reader, all: (p) => prepared.all(p), run: (p) => prepared.run(p), iterate: (p) => file.prepare(text).iterate(p) };
        if (kept.size >= STATEMENT_CACHE_SIZE) kept.clear();
        kept.set(text, statement);
      }
      return statement;
    },
  };
}

/** Current Unix time in seconds: the unit of every time column. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

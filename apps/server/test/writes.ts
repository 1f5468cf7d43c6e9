import { sql } from 'kysely';
import type { TestServer } from './helpers.js';

/**
 * A write log for hostile-input tests: row triggers on every table of a test database log each insert,
 * update and delete into fuzz_writes, so "did this change any row" is one cheap, exact query after each
 * request. Only ever installed on the throw-away database of one test file.
 */
export interface WriteLog {
  /** Every table (the log's own aside), sorted. */
  tables: string[];
  /** The writes logged since the last call, as "op table", and clears the log. */
  take(): Promise<string[]>;
  /**
   * Waits until the log has not grown over three reads 20 ms apart (background work of the last request
   * finished), keeping what was logged for the next take(); gives up waiting after about 4 s.
   */
  settle(): Promise<void>;
}

export async function installWriteLog(server: TestServer, skip: ReadonlySet<string> = new Set()): Promise<WriteLog> {
  const db = server.db;
  const sqlite = server.databaseUrl === null;
  const rows = sqlite
    ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
    : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(db);
  const tables = rows.rows.map((r) => r.name).filter((t) => !skip.has(t) && t !== 'fuzz_writes').sort();
  await sql`create table fuzz_writes (tbl text not null, op text not null)`.execute(db);
  if (!sqlite) {
    await sql`create function fuzz_log() returns trigger language plpgsql as $$ begin insert into fuzz_writes values (TG_TABLE_NAME, TG_OP); return null; end $$`.execute(db);
  }
  for (const t of tables) {
    for (const op of ['insert', 'update', 'delete']) {
      const name = sql.raw(`fuzz_${t}_${op}`);
      if (sqlite) {
        await sql`create trigger ${name} after ${sql.raw(op)} on ${sql.table(t)} begin insert into fuzz_writes values (${sql.lit(t)}, ${sql.lit(op)}); end`.execute(db);
      } else {
        await sql`create trigger ${name} after ${sql.raw(op)} on ${sql.table(t)} for each row execute function fuzz_log()`.execute(db);
      }
    }
  }
  const take = async (): Promise<string[]> => {
    const logged = await sql<{ tbl: string; op: string }>`select tbl, op from fuzz_writes`.execute(db);
    if (logged.rows.length) await sql`delete from fuzz_writes`.execute(db);
    return logged.rows.map((r) => `${r.op} ${r.tbl}`.toLowerCase());
  };
  const count = async (): Promise<number> =>
    Number((await sql<{ n: number | string }>`select count(*) as n from fuzz_writes`.execute(db)).rows[0]?.n ?? 0);
  const settle = async (): Promise<void> => {
    let last = await count();
    for (let quiet = 0, i = 0; quiet < 3 && i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const now = await count();
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
  };
  return { tables, take, settle };
}

import { randomUUID } from 'node:crypto';
import { buildTree, type Department, type DepartmentNode } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { STATE_NORMAL } from '../db/sql.js';

/**
 * Department storage. Departments belong to one company (`company_id`, migration 006) and form a tree by
 * `parent_id` (null at the top). Deleting is soft (state 20) so a department can be restored; names are
 * unique among the live (state 10) children of one parent. A user's department is `users.team`.
 */
export type DepartmentRecord = Awaited<ReturnType<typeof listDepartments>>[number];

export const newDepartmentId = (): string => randomUUID();

export async function findDepartment(db: Kysely<DB>, id: string) {
  return db.selectFrom('departments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A live department of this company, or undefined. */
export async function liveDepartment(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('departments')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .where('state', '=', STATE_NORMAL)
    .executeTakeFirst();
}

/** Every department of a company (deleted ones too), siblings by sort, then name. */
export async function listDepartments(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('departments')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('sort')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Users in state 10 per department of a company. */
export async function memberCounts(db: Kysely<DB>, companyId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['team', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', companyId)
    .where('state', '=', STATE_NORMAL)
    .where('team', '<>', '')
    .groupBy('team')
    .execute();
  return new Map(rows.map((r) => [r.team, Number(r.n)]));
}

export function presentDepartment(row: DepartmentRecord, members: number): Department {
  return {
    id: row.id,
    parent_id: row.parent_id ?? '',
    name: row.name,
    description: row.description,
    notes: row.notes,
    state: row.state === STATE_NORMAL ? 10 : 20,
    company_id: row.company_id ?? '',
    sort: Number(row.sort),
    member_count: members,
    create_time: Number(row.created_at),
  };
}

/** The tree of a company's departments with member counts (what /team/list answers). */
export async function departmentTree(db: Kysely<DB>, companyId: string): Promise<{ list: DepartmentNode[]; total: number }> {
  const [rows, counts] = await Promise.all([listDepartments(db, companyId), memberCounts(db, companyId)]);
  const flat = rows.map((r) => presentDepartment(r, counts.get(r.id) ?? 0));
  return { list: buildTree(flat), total: flat.length };
}

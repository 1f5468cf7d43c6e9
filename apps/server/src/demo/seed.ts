import { randomUUID } from 'node:crypto';
import { NoFlyShape, RecordState, ResultCode, calls, demoText, type ParsedFields } from '@nest/contracts';
import { noFlyConflictIssues } from '@nest/geo';
import type { FastifyBaseLogger } from 'fastify';
import type { CallResult, Caller, Handler, Handlers } from '../calls/types.js';
import type { UserRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { fenceHandlers } from '../fences/handlers.js';
import { missionHandlers } from '../missions/handlers.js';
import { noFlyHandlers } from '../nofly/handlers.js';
import { DEMO_NO_FLY_RADIUS_M, demoNames, fenceFields, labelOf, noFlyFields, noFlySpots, patrolFields, surveyFields, type LatLng } from './plans.js';

/** settings key: present once the demo plans were made (value: a DemoSeedRecord). */
export const DEMO_SEEDED_KEY = 'demo.seeded';

export interface DemoNest {
  sn: string;
  name: string;
  home: LatLng;
}

/** The system actor of demo objects and launches (a demo text: shown in the reader's language). */
export const DEMO_NICK = demoText('user.demo');

const systemCaller = (companyId: string): Caller => ({
  sessionId: '',
  token: '',
  user: { u_id: '', nick: DEMO_NICK, company_id: companyId } as UserRow,
  funList: [],
});

type SeedCall = 'fenceAdd' | 'missionAdd' | 'noFlyAdd';

/**
 * Runs a planning call exactly as the console would: the registry's field schema, then the real handler
 * (fence overlap rules, route validation, survey grid generation). Answers the saved object's id.
 */
async function invoke<N extends SeedCall>(handlers: Handlers, name: N, raw: Record<string, string>, caller: Caller, log: FastifyBaseLogger): Promise<string> {
  const def = calls[name];
  const parsed = def.fields.safeParse(raw);
  if (!parsed.success) throw new Error(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid fields'}`);
  const handler = handlers[name] as Handler<N>;
  const result: CallResult = await handler({
    name,
    def,
    fields: parsed.data as ParsedFields<N>,
    raw: new Map(Object.entries(raw)),
    lang: 'en',
    caller,
    address: '127.0.0.1',
    files: [],
    log,
  });
  if (result.code !== undefined && result.code !== ResultCode.OK) {
    throw new Error(`${name} refused: ${result.message?.('en') ?? result.code}`);
  }
  return (result.data as { id: string }).id;
}

/**
 * On the first start (settings key demo.seeded) gives each simulated nest a demo fence (an octagon of
 * 1.2 km), a patrol route and an area survey, and each company with such a nest one no-fly zone (a school
 * circle 800 m from its first nest, clear of every seeded route), all through the real planning handlers. The key is
 * inserted first inside one transaction: a second instance racing for it waits for the first commit and
 * then finds the key (no-op); a failure rolls everything back, so the next start tries again. A nest whose
 * fence is refused (e.g. it overlaps an operator's fence) is skipped with a warning. Answers how many
 * routes were made (0 when already seeded).
 */
export async function seedDemoPlans(deps: AppDeps, nests: readonly DemoNest[], log: FastifyBaseLogger): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    // A unique token tells whether this transaction's insert won (portable: no driver row counts).
    const token = `seeding:${randomUUID()}`;
    await trx.insertInto('settings').values({ key: DEMO_SEEDED_KEY, value: token }).onConflict((oc) => oc.doNothing()).execute();
    const held = await trx.selectFrom('settings').select('value').where('key', '=', DEMO_SEEDED_KEY).executeTakeFirst();
    if (held?.value !== token) return 0;
    const local = { ...deps, db: trx };
    const handlers: Handlers = { ...fenceHandlers(local), ...missionHandlers(local), ...noFlyHandlers(local) };
    let routes = 0;
    const patrols: Record<string, string> = {};
    /** Per company: its seeded nests (home and label) and the waypoints of each seeded route. */
    const companies = new Map<string, { nests: { home: LatLng; label: string }[]; routes: LatLng[][] }>();
    for (const nest of nests) {
      const device = await trx.selectFrom('devices').select('company_id').where('sn_id', '=', nest.sn).executeTakeFirst();
      if (!device) continue;
      const caller = systemCaller(device.company_id);
      const names = demoNames(labelOf(nest.name, nest.sn));
      let fenceId: string;
      try {
        fenceId = await invoke(handlers, 'fenceAdd', fenceFields(names.fence, nest.sn, nest.home), caller, log);
      } catch (err) {
        log.warn({ sn: nest.sn, err: String(err) }, 'demo fence not made; this nest gets no demo routes');
        continue;
      }
      patrols[nest.sn] = await invoke(handlers, 'missionAdd', patrolFields(names.patrol, fenceId, nest.home), caller, log);
      const surveyId = await invoke(handlers, 'missionAdd', surveyFields(names.survey, fenceId, nest.home), caller, log);
      routes += 2;
      const seeded = await trx.selectFrom('missions').select('waypoints').where('id', 'in', [patrols[nest.sn]!, surveyId]).execute();
      const company = companies.get(device.company_id) ?? { nests: [], routes: [] };
      company.nests.push({ home: nest.home, label: labelOf(nest.name, nest.sn) });
      company.routes.push(...seeded.map((r) => JSON.parse(r.waypoints) as LatLng[]));
      companies.set(device.company_id, company);
    }
    // One demo no-fly zone per company (a school circle for all its devices), where no seeded route of the
    // company goes and no nest of it stands, checked with geo's no-fly rule.
    for (const [companyId, company] of companies) {
      const clear = (center: LatLng) => {
        const zone = { name: '', reason: '', shape: NoFlyShape.CIRCLE, boundary: [], center, radius: DEMO_NO_FLY_RADIUS_M, sn_id: '', valid_from: null, valid_to: null };
        return [...company.routes, ...company.nests.map((n) => [n.home])].every((wps) => noFlyConflictIssues(wps, [zone]).length === 0);
      };
      const first = company.nests[0]!;
      const spot = noFlySpots(first.home).find(clear);
      if (!spot) {
        log.warn({ company: companyId }, 'no clear spot for the demo no-fly zone; this company gets none');
        continue;
      }
      await invoke(handlers, 'noFlyAdd', noFlyFields(first.label, spot), systemCaller(companyId), log);
    }
    await trx
      .updateTable('settings')
      .set({ value: JSON.stringify({ at: Math.floor(Date.now() / 1000), routes, patrols } satisfies DemoSeedRecord) })
      .where('key', '=', DEMO_SEEDED_KEY)
      .execute();
    return routes;
  });
}

/** The settings value of DEMO_SEEDED_KEY once seeded: when, how many routes, the patrol route id per nest. */
export interface DemoSeedRecord {
  at: number;
  routes: number;
  patrols: Record<string, string>;
}

/**
 * The demo patrol route of a nest, or null: only the route the seed made (an operator's routes are never
 * flown by the demo), and only while it and its fence still exist (an operator may delete them).
 */
export async function patrolRouteOf(deps: Pick<AppDeps, 'db'>, sn: string): Promise<{ id: string; name: string; company_id: string } | null> {
  const seeded = await deps.db.selectFrom('settings').select('value').where('key', '=', DEMO_SEEDED_KEY).executeTakeFirst();
  let id: string | undefined;
  try {
    id = (JSON.parse(seeded?.value ?? '{}') as Partial<DemoSeedRecord>).patrols?.[sn];
  } catch {
    return null;
  }
  if (!id) return null;
  const row = await deps.db
    .selectFrom('missions')
    .innerJoin('fences', 'fences.id', 'missions.fence_id')
    .select(['missions.id', 'missions.name', 'missions.company_id'])
    .where('missions.id', '=', id)
    .where('fences.sn_id', '=', sn)
    .where('fences.state', '=', RecordState.NORMAL)
    .where('missions.state', '=', RecordState.NORMAL)
    .executeTakeFirst();
  return row ?? null;
}

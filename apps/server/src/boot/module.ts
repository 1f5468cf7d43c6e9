import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Handlers } from '../calls/types.js';
import type { DB } from '../db/schema.js';
import type { PushHandlers } from '../push/handlers.js';

/** Something running that the app stops when it closes. */
export interface Running {
  stop(): Promise<void>;
}

/**
 * One server feature, as its folder's index.ts exports it. `S` is what the feature needs from the services
 * the composition root builds (app.ts): a list of modules typed FeatureModule<Services> only accepts
 * features whose needs the services meet.
 *
 * Order (registerModules): every module's start, in list order; then routes and calls in list order; push
 * handlers with the calls. Running parts stop in reverse order when the app closes.
 */
export interface FeatureModule<S> {
  readonly name: string;
  /** Reference data every start makes sure of (idempotent, never overwrites), run before the app builds. */
  readonly seed?: (db: Kysely<DB>) => Promise<void>;
  /** Long-running work (device event followers, timers). */
  readonly start?: (services: S) => Running | Promise<Running>;
  /** HTTP routes outside the call registry; may answer the calls that go with them (a download runner's). */
  readonly routes?: (app: FastifyInstance, services: S) => void | Handlers | Promise<void | Handlers>;
  /** Call handlers by registry name. */
  readonly calls?: (services: S) => Handlers;
  /** Push message handlers by msg_id. */
  readonly push?: (services: S) => PushHandlers;
}

/** What registerModules hands back to the root: the calls to register, and the running parts' stopper. */
export interface Registered {
  handlers: Handlers;
  stop(): Promise<void>;
}

/**
 * Starts the modules and registers their routes; answers their call handlers (a call name has one owner)
 * after handing their push handlers to `addPush`. A start that fails stops what started before it.
 */
export async function registerModules<S>(
  app: FastifyInstance,
  services: S,
  modules: readonly FeatureModule<S>[],
  addPush: (handlers: PushHandlers) => void,
): Promise<Registered> {
  const running: Running[] = [];
  const stop = async () => {
    for (const r of running.splice(0).reverse()) await r.stop();
  };
  try {
    for (const m of modules) if (m.start) running.push(await m.start(services));
    const handlers: Handlers = {};
    const add = (owner: string, more: Handlers | void) => {
      for (const [name, handler] of Object.entries(more ?? {})) {
        if (name in handlers) throw new Error(`call ${name} of module ${owner} has a handler already`);
        (handlers as Record<string, unknown>)[name] = handler;
      }
    };
    for (const m of modules) if (m.routes) add(m.name, await m.routes(app, services));
    for (const m of modules) {
      if (m.calls) add(m.name, m.calls(services));
      if (m.push) addPush(m.push(services));
    }
    return { handlers, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The reference data of the modules, in list order. */
export async function seedModules(db: Kysely<DB>, modules: readonly Pick<FeatureModule<never>, 'seed'>[]): Promise<void> {
  for (const m of modules) await m.seed?.(db);
}

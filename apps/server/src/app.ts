import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyWebsocket from '@fastify/websocket';
import { PUSH_MAX_FRAME_BYTES, PUSH_PATH, ResultCode } from '@nest/contracts';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { loadOrCreateKeys, publicKeysOf } from './auth/keys.js';
import { dummyHash } from './auth/passwords.js';
import { findLiveSession } from './auth/sessions.js';
import { registerModules } from './boot/module.js';
import { MODULES } from './boot/modules.js';
import { pushPorts } from './boot/push.js';
import { createServices, type Services } from './boot/services.js';
import { FORM_BODY_LIMIT, MAX_FIELDS, MAX_FILES, MULTIPART_FIELD_LIMIT, parseForm } from './calls/body.js';
import { envelope, httpStatusOf } from './calls/errors.js';
import { headerLang, registerCalls } from './calls/routes.js';
import { refuseNulInUrls } from './calls/url-guard.js';
import { answerFrameworkError, warnUntrustedProxy } from './calls/http-guards.js';
import type { Handlers } from './calls/types.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { seedReferenceData } from './boot/seed.js';
import { sessionPolicyOf, type AppDeps } from './deps.js';
import type { FlightRuntime } from './flight/index.js';
import { startLive } from './boot/live.js';
import { PushHub } from './push/hub.js';
import { DataChanges } from './push/changes.js';
import { registerSecurityHeaders } from './static/headers.js';
import { registerStaticResources } from './static/routes.js';
import { registerWebApp } from './static/web.js';
import { createMediaStore } from './storage/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's shared parts, for main.ts and tests. */
    nest: { deps: AppDeps; hub: PushHub; routes: RouteEntry[]; flight: FlightRuntime; services: Services };
  }
}

/** A registered route (collected with the onRoute hook, for the registry completeness test). */
export interface RouteEntry {
  method: string;
  url: string;
}

export interface BuildOptions {
  /**
   * An open, migrated database. The app takes ownership and closes it on app.close(). Without one, the app
   * opens the configured database itself, migrates it and seeds the reference data (not the first
   * administrator: main.ts and the tests do that explicitly).
   */
  database?: DatabaseHandle;
  /** Handlers replacing or adding to the feature modules' (tests). */
  handlers?: Handlers;
  /** Where the log lines go (JSON lines, as on stdout); tests read the warnings the server logs. */
  logStream?: { write(line: string): void };
}

function errorCode(err: FastifyError): number {
  const status = err.statusCode ?? 500;
  if (status === 413) return ResultCode.PAYLOAD_TOO_LARGE;
  if (status === 415) return ResultCode.UNSUPPORTED_MEDIA;
  if (status >= 400 && status < 500) return ResultCode.BAD_REQUEST;
  return ResultCode.SERVER_ERROR;
}

/**
 * Builds the Fastify app (no listen): body parsers, security headers, the envelope error and not-found
 * handlers, static resources, one route per registry call, the push hub and the web app.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  let database = options.database;
  if (!database) {
    database = openDatabase(config);
    try {
      await migrateToLatest(database.db);
      await seedReferenceData(database.db);
    } catch (err) {
      await database.db.destroy();
      throw err;
    }
  }
  const { db, kind } = database;

  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: FORM_BODY_LIMIT,
    // One proxy hop only: the client address is the one our proxy appended to X-Forwarded-For, never an
    // entry the client sent itself (it would pick its own address and slip past sign-in throttling).
    // (A hop count would not do: this fastify treats a number as trusting nobody.)
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    // Per-request lines only at debug/trace; errors are logged by the handlers.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    // A broken %-escape in the path and the like: the product's envelope, not Fastify's own JSON.
    frameworkErrors: answerFrameworkError,
  });
  app.addHook('onClose', async () => {
    await db.destroy();
  });

  try {
    const keys = await loadOrCreateKeys(config.dataDir);
    // Warm the dummy hash so the first unknown-account sign-in costs what a wrong password costs.
    await dummyHash(config.scrypt);
    const live = await startLive(config, db, app.log);
    app.addHook('onClose', async () => live.close());
    const media = createMediaStore(config);
    app.addHook('onClose', async () => media.close());
    live.deviceRoutes(app, media);
    const deps: AppDeps = { config, db, dbKind: kind, keys, sessions: sessionPolicyOf(config), live, changes: new DataChanges(live.bus), media };
    const hub = new PushHub(deps, pushPorts(deps), app.log);
    const services = createServices(deps, hub, app.log);
    const routes: RouteEntry[] = [];
    app.decorate('nest', { deps, hub, routes, flight: services.flight, services });
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });

    // Only the body types the calls accept: form-encoded (with a 1 MB limit) and multipart.
    app.removeAllContentTypeParsers();
    // parseForm answers a FormBody (a Map inside), not the plain object formbody's types assume.
    const parser = parseForm as unknown as (text: string) => Record<string, unknown>;
    await app.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT, parser });
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: true,
      limits: {
        fieldNameSize: 200,
        fieldSize: MULTIPART_FIELD_LIMIT,
        fields: MAX_FIELDS,
        fileSize: config.uploadMaxBytes,
        files: MAX_FILES,
        parts: MAX_FIELDS + MAX_FILES,
        headerPairs: 200,
      },
    });
    await app.register(fastifyWebsocket, {
      // Frames up to 16x the contract limit are read and answered BAD_REQUEST; beyond, ws closes (1009).
      options: { maxPayload: PUSH_MAX_FRAME_BYTES * 16 },
    });
    registerSecurityHeaders(app);
    refuseNulInUrls(app);
    warnUntrustedProxy(app, config);

    app.setErrorHandler((err: FastifyError, request, reply) => {
      const code = errorCode(err);
      if (code === ResultCode.SERVER_ERROR) request.log.error({ err }, 'request failed');
      return reply.code(httpStatusOf(code)).send(envelope(code, headerLang(request)));
    });

    registerStaticResources(app, publicKeysOf(keys));
    // The features, one list (boot/modules.ts): started now, stopped when the app closes.
    const features = await registerModules(app, services, MODULES, (handlers) => hub.register(handlers));
    app.addHook('onClose', async () => features.stop());
    registerCalls(app, deps, { ...features.handlers, ...options.handlers }, (token) => findLiveSession(deps.db, token, deps.sessions));
    app.route({
      method: 'GET',
      url: PUSH_PATH,
      // A plain GET (no WebSocket upgrade) gets the envelope every unknown call gets.
      handler: async (request, reply) =>
        reply.code(httpStatusOf(ResultCode.NO_SUCH_CALL)).send(envelope(ResultCode.NO_SUCH_CALL, headerLang(request))),
      wsHandler: (socket) => hub.attach(socket),
    });
    const spaFallback = await registerWebApp(app, config);

    app.setNotFoundHandler((request, reply) => {
      if (spaFallback(request, reply)) return;
      const code = ResultCode.NO_SUCH_CALL;
      void reply.code(httpStatusOf(code)).send(envelope(code, headerLang(request)));
    });

    app.addHook('preClose', async () => hub.close());
    await app.ready();
  } catch (err) {
    await app.close();
    throw err;
  }
  return app;
}

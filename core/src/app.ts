import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import jwt from '@fastify/jwt';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { safeEncode, type $ZodType } from 'zod/v4/core';
import pino, { type Logger } from 'pino';
import type { AtendeConfig } from './config.ts';
import { openDatabase } from './db/orm.ts';
import { runMigrations, type MigrationModule } from './db/migrate.ts';
import { LocalEventBus } from './events/local.ts';
import { RedisEventBus } from './events/redis.ts';
import { LocalCluster, RedisCluster } from './events/cluster.ts';
import { DOCS_PREFIX, installApiDocs } from './http/docs.ts';
import { installRateLimit } from './http/rate-limit.ts';
import { Redis } from 'ioredis';
import { BullJobs } from './jobs/bullmq.ts';
import { RealtimeHub } from './realtime/hub.ts';
import { OFFLINE_GRACE_MS, Presence } from './realtime/presence.ts';
import { discoverPlugins } from './plugins/discover.ts';
import { PluginEnablement } from './plugins/enablement.ts';
import { RecordExtensions } from './plugins/records.ts';
import { answerFrameworkError, installErrorHandler } from './http/errors.ts';
import { installAuth } from './http/auth.ts';
import { AppError } from './errors.ts';
import { HookList, type Kernel } from './kernel.ts';
import { KERNEL_MENUS } from './modules/access/menus.ts';
import { kernelModules } from './modules/index.ts';
import { installSecret, reloadRecipients } from './modules/identity/tokens.ts';
import { LocalMediaStore } from './storage/local.ts';
import { mountPlugin } from './plugins/context.ts';
import { OutboundGuard } from './net/outbound.ts';
import { loadOutboundAllow, OUTBOUND_ALLOW_CHANGED } from './modules/platform/routes.ts';
import type { PluginDefinition, RouteAccess } from './sdk/types.ts';

export interface BuildOptions {
  /** Pass a logger (tests pass a silent one). */
  logger?: Logger;
  /** Run pending migrations at build (default true). */
  migrate?: boolean;
  /** Start job workers in this process (default: role all|worker). */
  workers?: boolean;
  /** Told how many migrations ran (the CLI shows it as a step of the start). */
  onMigrated?: (applied: number) => void;
}

export function createLogger(config: Pick<AtendeConfig, 'logLevel'>): Logger {
  const redact = { paths: ['req.headers.authorization', '*.password', '*.token', '*.refreshToken'], censor: '[redacted]' };
  // A person at a terminal gets readable lines; a service manager or log collector gets JSON.
  if (process.stdout.isTTY) return pino({ level: config.logLevel, redact, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } });
  return pino({ level: config.logLevel, redact });
}

/**
 * A parsed JSON value with every NUL removed from its strings and keys (PostgreSQL text
 * cannot hold them). A key that only becomes `__proto__` or `constructor` once stripped is
 * dropped, as the parser refuses those keys outright.
 */
function withoutNul(v: unknown): unknown {
  if (typeof v === 'string') return v.replaceAll('\u0000', '');
  if (Array.isArray(v)) return v.map(withoutNul);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .map(([k, x]) => [k.replaceAll('\u0000', ''), x] as const)
        .filter(([k]) => k !== '__proto__' && k !== 'constructor')
        .map(([k, x]) => [k, withoutNul(x)]),
    );
  }
  return v;
}

/** What a caller-supplied `x-request-id` may look like (UUIDs, ULIDs, trace ids). */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** Kernel migration modules in dependency order, then each plugin's in plugin dependency order. */

export function migrationPlan(plugins: PluginDefinition[]): MigrationModule[] {
  return [
    ...kernelModules.map((m) => ({ module: `core:${m.name}`, migrations: m.migrations })),
    ...plugins.filter((p) => p.migrations?.length).map((p) => ({ module: `plugin:${p.id}`, migrations: p.migrations! })),
  ];
}

/**
 * How the shell's and the remotes' builds are served (docs/performance.md U1):
 * - the `.br` / `.gz` files written next to each asset at build time
 *   (ui-shell/mf-shared.ts `precompress`) go to browsers that accept them, with
 *   `Content-Encoding` and `Vary: Accept-Encoding`; the plain file otherwise;
 * - files under `assets/` carry a content hash in their name, so browsers keep
 *   them for a year without asking again; everything else (`index.html`, a
 *   remote's `remoteEntry.js` and manifest) is revalidated on each load (ETag),
 *   so a deploy is picked up at once.
 */
const uiStaticOptions = {
  preCompressed: true,
  cacheControl: false,
  setHeaders(reply: { header(name: string, value: string): unknown }, filePath: string) {
    const hashed = /[\\/]assets[\\/][^\\/]+$/.test(filePath);
    reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  },
} as const;

/**
 * Writes an answer through its route's response schema (zod `encode`), which
 * also drops any field the schema does not declare, so a handler cannot leak
 * what the API does not document. With `strictResponses` (tests) an answer that
 * does not match is a 500, so drift between a handler and its schema fails a
 * test; in production it is logged and the answer is written as built, rather
 * than failing a user's request over a documentation mismatch.
 */
function responseSerializer(config: AtendeConfig, logger: Logger) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zodSchema = schema as $ZodType;
    return (data: unknown): string => {
      const result = safeEncode(zodSchema, data);
      if (!result.success) {
        const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
        if (config.strictResponses) throw Object.assign(new Error(`response of ${method} ${url} does not match its schema: ${issues.join('; ')}`), { code: 'ATENDE_RESPONSE_SCHEMA' });
        logger.error({ route: `${method} ${url}`, issues }, 'response does not match its schema');
        return JSON.stringify(data);
      }
      return JSON.stringify(result.data);
    };
  };
}

/**
 * Builds the whole application without listening: database, migrations, event
 * bus, jobs, real time, kernel routes and plugins. `listen` is the caller's.
 */
export async function buildApp(config: AtendeConfig, opts: BuildOptions = {}): Promise<FastifyInstance> {
  if (!config.databaseUrl) throw new Error('buildApp needs config.databaseUrl (the CLI starts the embedded PostgreSQL first)');
  const logger = opts.logger ?? createLogger(config);
  const plugins = await discoverPlugins(config.rootDir, config.plugins);
  const entities = [...kernelModules.flatMap((m) => m.entities), ...plugins.flatMap((p) => p.entities ?? [])];
  const db = await openDatabase(config.databaseUrl, entities);
  if (opts.migrate !== false) {
    // Apart from the callback: `onMigrated?.(await runMigrations(…))` would skip the migrations whenever no one listens.
    const applied = await runMigrations(db.pool, migrationPlan(plugins), (m) => logger.info(m));
    opts.onMigrated?.(applied);
  }

  const bus = config.redisUrl ? new RedisEventBus(config.redisUrl, config.namespace) : new LocalEventBus();
  const jobs = new BullJobs(
    config.redisUrl ? { kind: 'redis', url: config.redisUrl, prefix: config.namespace } : { kind: 'postgres', url: config.databaseUrl, prefix: config.namespace },
    logger.child({ mod: 'jobs' }),
  );
  const cluster = config.redisUrl ? new RedisCluster(config.redisUrl, config.namespace) : new LocalCluster();
  const realtime = new RealtimeHub(bus, cluster, logger.child({ mod: 'realtime' }));
  const presence = new Presence(db.pool, bus, logger.child({ mod: 'presence' }));
  realtime.setPresence(presence, OFFLINE_GRACE_MS);
  realtime.setReloader((tenantId, userIds) => reloadRecipients(db.pool, tenantId, userIds));
  realtime.setLimits({ perSession: config.wsMaxPerSession, perUser: config.wsMaxPerUser });
  const defs = new Map(plugins.map((p) => [p.id, p]));
  const enablement = new PluginEnablement(db.pool, defs);
  const menus = new Map<string, Kernel['menus'] extends Map<string, infer V> ? V : never>();
  for (const m of KERNEL_MENUS) menus.set(m.key, m);
  for (const p of plugins) {
    for (const m of p.menus ?? []) {
      const kernelMenu = menus.get(m.key);
      if (!kernelMenu) menus.set(m.key, { ...m, pluginId: p.id });
      // A plugin whose menu is a kernel menu with the same route is that menu's screen: the menu follows its enablement per tenant.
      else if (!kernelMenu.pluginId && kernelMenu.route === m.route) menus.set(m.key, { ...kernelMenu, pluginId: p.id });
    }
  }

  const kernel: Kernel = {
    config,
    logger,
    db,
    bus,
    cluster,
    extensions: new Map(),
    jobs,
    realtime,
    plugins,
    enablement,
    menus,
    jwtSecret: await installSecret(db.pool, 'jwt'),
    channelAdapters: new Map(),
    channelPlugins: new Map(),
    storage: new LocalMediaStore(path.join(config.dataDir, 'media'), await installSecret(db.pool, 'media')),
    outbound: new OutboundGuard({
      allow: config.outboundAllow,
      loadAllow: () => loadOutboundAllow(db.pool),
      onBlocked: (target, reason) => logger.warn({ event: 'outbound.blocked', target, reason }, 'outbound request refused'),
    }),
    hooks: { afterInbound: new HookList(logger, 'afterInbound') },
    templateProviders: new Map(),
    records: new RecordExtensions(enablement),
    routes: [],
    onClose: [],
    state: { shuttingDown: false, startedAt: Date.now() },
  };
  realtime.setFrameText((json, tenantId) => kernel.storage.clientJson(json, tenantId));

  const serverOpts: FastifyServerOptions = {
    loggerInstance: logger,
    // A caller's request id is kept only when it is a plain token: it is echoed in a header and written to every log line.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // Errors raised before routing (FST_ERR_BAD_URL for `GET /media/%`…) answer the catalogue's shape too, not Fastify's.
    frameworkErrors: answerFrameworkError,
    bodyLimit: 2 * 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies the operator named (TRUST_PROXY); by default nobody's.
    // Fastify takes a hop count too, though its types do not say so.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    // While draining, requests still reach the onRequest hook below, which answers 503 with the catalogue's ERR_SHUTTING_DOWN instead of Fastify's bare 503.
    return503OnClosing: false,
    // Registering every module and plugin can take longer than Fastify's 10 s default on a loaded machine; a slow start is not a failed one.
    pluginTimeout: 120_000,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    // Per-request lines only at debug: at 1,500 webhooks/s they would drown the log.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  };
  const app = Fastify(serverOpts).withTypeProvider<ZodTypeProvider>();
  kernel.cluster.on(OUTBOUND_ALLOW_CHANGED, () => kernel.outbound.invalidate());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(config, logger));
  app.decorate('kernel', kernel);
  app.addHook('onRoute', (route) => {
    // The documentation's own pages are not part of the API.
    if (route.url.startsWith(DOCS_PREFIX)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Read config lazily: plugin scopes add `pluginId` in their own onRoute hooks, which run after this one.
    const cfg = () => route.config as { access?: RouteAccess; pluginId?: string } | undefined;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      kernel.routes.push({
        method,
        url: route.url,
        get access() {
          return cfg()?.access;
        },
        get pluginId() {
          return cfg()?.pluginId;
        },
        schema: route.schema as Record<string, unknown> | undefined,
        websocket: !!(route as { websocket?: boolean }).websocket,
      });
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    // API answers are per user and often carry tokens or personal data (X1-18): no browser or
    // shared proxy keeps them, unless the route chose its own policy (media, static files).
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    // Stored media URLs leave the server only in their expiring form, and only to the file's tenant.
    if (typeof payload === 'string' && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return kernel.storage.clientJson(payload, req.principal?.tenantId);
    return payload;
  });
  installErrorHandler(app);
  // JSON bodies: Fastify's own parser (prototype-poisoning safe), keeping the raw bytes on
  // `req.rawBody` for webhook signatures, and refusing NUL characters, which PostgreSQL
  // cannot store in text and which no legitimate client of our API sends. A provider's
  // webhook (`config.webhook`) is the exception: refusing it would make the provider
  // redeliver the same body forever and the customer's message would be lost, so there
  // the NULs are stripped from the parsed strings; the signature covers `rawBody`, untouched.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const raw = body as Buffer;
    req.rawBody = raw;
    if (raw.length === 0) return done(null, undefined);
    const text = raw.toString('utf8');
    if (text.includes('\\u0000') || text.includes('\u0000')) {
      if (req.routeOptions.config?.webhook) return defaultJson(req, text, (err, parsed) => (err ? done(err, undefined) : done(null, withoutNul(parsed))));
      return done(new AppError('ERR_VALIDATION', { details: 'caractere nulo não é permitido' }), undefined);
    }
    defaultJson(req, text, done);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  if (config.corsOrigin) await app.register(cors, { origin: config.corsOrigin.split(',').map((s) => s.trim()), credentials: true });
  await app.register(jwt, { secret: kernel.jwtSecret, sign: { algorithm: 'HS256' }, verify: { algorithms: ['HS256'] } });
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // On shutdown sockets first hear `server.restarting` and close with 1012, so clients reconnect (to another node) and resume; the plugin's default closes them without a word.
    preClose(done) {
      realtime.closeAll();
      this.websocketServer.close(() => done());
    },
  });

  // While draining, new requests are refused so load balancers move them elsewhere.
  app.addHook('onRequest', async (req) => {
    if (kernel.state.shuttingDown && req.url !== '/api/health') throw new AppError('ERR_SHUTTING_DOWN');
  });
  installAuth(app);
  const limiterRedis = config.redisUrl && (config.rateLimitTenant || config.rateLimitIp) ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  limiterRedis?.on('error', () => undefined);
  await installRateLimit(app, kernel, limiterRedis);
  await installApiDocs(app, kernel);

  for (const mod of kernelModules) if (mod.routes) await app.register(fp(async (scope) => mod.routes!(scope, kernel), { name: `core-${mod.name}` }));

  for (const def of plugins) {
    await app.register(
      fp(async (scope) => mountPlugin(scope, kernel, def), {
        name: `plugin-${def.id}`,
        dependencies: (def.dependsOn ?? []).map((d) => `plugin-${d}`),
      }),
    );
  }

  // Shell and remotes are served from the same origin as the API (docs/architecture.md, "UI"): module federation loads remotes by URL, and one origin keeps the CSP and the bearer token simple.
  const shellDist = path.join(config.rootDir, 'ui-shell', 'dist');
  if (fs.existsSync(shellDist)) await app.register(fastifyStatic, { ...uiStaticOptions, root: shellDist, prefix: '/', wildcard: false, index: ['index.html'] });
  for (const def of plugins.filter((p) => p.ui)) {
    const dist = path.join(config.rootDir, 'ui-plugins', def.id, 'dist');
    if (fs.existsSync(dist)) await app.register(fastifyStatic, { ...uiStaticOptions, root: dist, prefix: `/plugins/${def.id}/`, decorateReply: false });
  }

  app.addHook('onClose', async () => {
    realtime.closeAll();
    await presence.close();
    await jobs.close(config.shutdownTimeoutMs);
    for (const fn of kernel.onClose) await fn().catch((err) => logger.warn({ err: (err as Error).message }, 'close hook failed'));
    await kernel.outbound.close();
    await bus.close();
    await kernel.cluster.close();
    limiterRedis?.disconnect();
    await db.close();
  });

  if (opts.workers ?? config.role !== 'api') jobs.start();
  return app;
}

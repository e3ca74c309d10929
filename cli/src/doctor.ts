import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ConfigError, discoverPlugins, embeddedStatus, loadConfig, migrationPlan, startEmbeddedPostgres, type AtendeConfig } from '@atende/core';
import type { PluginDefinition } from '@atende/core/sdk';
import type { CliContext } from './context.ts';
import { pendingMigrations, runningEmbeddedUrl, summarise } from './database.ts';
import { describePostgresError, describeRedisError, endpointOf, withTimeout } from './diagnose.ts';
import { probePort } from './ports.ts';
import { missingUiBuilds, uiPluginCount } from './ui-builds.ts';

/**
 * `atende doctor`: checks what an install needs, in the order a problem would
 * bite, one line each:
 *   ✔ fine   ✖ broken (with what to do; exit code 1)   ⚠ worth knowing   – not checked
 * Later checks still run after a failure, so one run shows every problem.
 */
const TIMEOUT_MS = 3000;
const MIN_NODE: [number, number] = [20, 19];
const MIN_POSTGRES = 15;

type Mark = '✔' | '✖' | '⚠' | '–';

export async function doctor(ctx: CliContext): Promise<number> {
  let failures = 0;
  const report = (mark: Mark, text: string) => {
    if (mark === '✖') failures++;
    ctx.out(`${mark} ${text}`);
  };

  // 1. Node
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const nodeOk = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  report(
    nodeOk ? '✔' : '✖',
    nodeOk
      ? `Node ${process.versions.node}`
      : `Node ${process.versions.node} é antigo demais: o Atende precisa do Node ${MIN_NODE.join('.')} ou mais novo. Instale-o (ex.: nvm install 20) e rode de novo.`,
  );

  // 2. Configuration
  const config = checkConfig(ctx, report);

  // 3. Database (and, while connected, what the migrations check needs)
  const db = await checkDatabase(config, report);

  // 4. Redis
  if (config.redisUrl) report(...(await checkRedis(config.redisUrl)));
  else report('–', 'Redis: não configurado (filas no PostgreSQL e eventos em processo; para vários nós defina REDIS_URL)');

  // 5. HTTP port
  report(...(await checkPort(config)));

  // 6. Plugins and migrations
  let plugins: PluginDefinition[] | undefined;
  try {
    plugins = await discoverPlugins(config.rootDir, config.plugins);
    report('✔', `Plugins: ${plugins.length ? plugins.map((p) => p.id).join(', ') : 'nenhum instalado'}`);
  } catch (err) {
    report('✖', `Plugins: ${(err as Error).message}. Corrija o plugin indicado em plugins/.`);
  }
  try {
    report(...(await checkMigrations(db, plugins)));
  } finally {
    await db.close();
  }

  // 7. UI builds
  const missing = missingUiBuilds(config.rootDir);
  report(
    missing.length ? '✖' : '✔',
    missing.length
      ? `Interface não compilada: falta ${summarise(missing)}. Execute: npm run build:ui`
      : `Interface compilada (shell e ${uiPluginCount(config.rootDir)} plugin(s) de interface)`,
  );

  ctx.out(failures ? `${failures} problema(s) encontrado(s).` : 'Tudo certo.');
  return failures ? 1 : 0;
}

function checkConfig(ctx: CliContext, report: (m: Mark, t: string) => void): AtendeConfig {
  try {
    const config = loadConfig(ctx.env);
    report('✔', `Configuração válida${config.databaseUrl ? '' : ` (dados em ${shortPath(config.dataDir)})`}`);
    return config;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    report('✖', `Configuração inválida: ${err.issues.join('; ')}. Corrija essas variáveis (docs/configuration.md).`);
    // Carry on with the variables that are valid, so the other checks still say something useful.
    const bad = new Set(err.issues.map((i) => i.split(':')[0]!.trim()));
    const env = Object.fromEntries(Object.entries(ctx.env).filter(([k]) => !bad.has(k)));
    try {
      return loadConfig(env);
    } catch {
      return loadConfig({});
    }
  }
}

interface DbProbe {
  /** A pool on the install's database, when one could be reached. */
  pool?: pg.Pool;
  /** The embedded cluster does not exist yet: everything will be created on first start. */
  fresh?: boolean;
  close(): Promise<void>;
}

async function checkDatabase(config: AtendeConfig, report: (m: Mark, t: string) => void): Promise<DbProbe> {
  const none: DbProbe = { close: async () => undefined };

  if (config.databaseUrl) {
    const url = config.databaseUrl;
    const pool = poolFor(url);
    const close = () => pool.end().catch(() => undefined);
    try {
      const r = await withTimeout(
        pool.query<{ v: string; n: number }>(`SELECT current_setting('server_version') AS v, current_setting('server_version_num')::int AS n`),
        TIMEOUT_MS,
      );
      const { host, port, database } = endpointOf(url, 5432);
      const { v, n } = r.rows[0]!;
      if (n < MIN_POSTGRES * 10000) {
        report('✖', `PostgreSQL em ${host}:${port} é a versão ${v}: o Atende precisa da ${MIN_POSTGRES} ou mais nova. Atualize-o ou aponte DATABASE_URL para outro servidor.`);
      } else {
        report('✔', `PostgreSQL ${v} em ${host}:${port} responde (banco ${database})`);
      }
      return { pool, close };
    } catch (err) {
      report('✖', describePostgresError(err, url, TIMEOUT_MS / 1000));
      await close();
      return none;
    }
  }

  let where = shortPath(path.join(config.dataDir, 'pg'));
  let status: Awaited<ReturnType<typeof embeddedStatus>>;
  try {
    status = await embeddedStatus(config.dataDir);
  } catch (err) {
    report('✖', `PostgreSQL embutido em ${where}: ${(err as Error).message}`);
    return none;
  }
  // As root, the cluster may live outside the data dir (when the postgres user cannot reach it).
  const external = (status as { clusterDir?: string }).clusterDir;
  if (external) where = external;
  if (!status.initialised) {
    report('✔', `PostgreSQL embutido: ainda não criado; o primeiro início o cria em ${where}`);
    return { ...none, fresh: true };
  }
  if (status.running) {
    const pool = await runningEmbeddedUrl(config.dataDir).then((url) => (url ? poolFor(url) : undefined), () => undefined);
    try {
      if (!pool) throw new Error(`sem ${shortPath(path.join(config.dataDir, 'embedded-pg.json'))}, que guarda porta e senha`);
      await withTimeout(pool.query('SELECT 1'), TIMEOUT_MS);
      report('✔', `PostgreSQL embutido em ${where} em execução (pid ${status.pid ?? '?'}, porta ${status.port ?? '?'})`);
      return { pool, close: async () => void (await pool.end().catch(() => undefined)) };
    } catch (err) {
      await pool?.end().catch(() => undefined);
      report('✖', `PostgreSQL embutido em ${where} está em execução (pid ${status.pid ?? '?'}) mas não aceita conexões: ${(err as Error).message}. Pare o Atende que o usa e rode de novo.`);
      return none;
    }
  }
  try {
    // Stopped: start it for a moment, which proves it can start, then stop it again.
    const embedded = await startEmbeddedPostgres(config.dataDir, { info: () => undefined, warn: () => undefined });
    const pool = poolFor(embedded.url);
    report('✔', `PostgreSQL embutido em ${where} inicia e responde (porta ${embedded.port})`);
    return {
      pool,
      close: async () => {
        await pool.end().catch(() => undefined);
        await embedded.stop();
      },
    };
  } catch (err) {
    const first = (err as Error).message.split('\n')[0];
    report('✖', `PostgreSQL embutido em ${where} não inicia: ${first}. Veja docs/operations.md (PostgreSQL embutido), ou defina DATABASE_URL.`);
    return none;
  }
}

function poolFor(url: string): pg.Pool {
  // The driver's own limit sits above ours so that withTimeout's clearer error wins.
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: TIMEOUT_MS + 1000 });
  pool.on('error', () => undefined);
  return pool;
}

async function checkRedis(url: string): Promise<[Mark, string]> {
  const { host, port } = endpointOf(url, 6379);
  // No retries and no offline queue: doctor wants the first answer, not a reconnect loop.
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: TIMEOUT_MS, commandTimeout: TIMEOUT_MS, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  // connect() rejects with a generic "Connection is closed"; the cause arrives as an 'error' event.
  let cause: unknown;
  redis.on('error', (err) => (cause ??= err));
  try {
    await withTimeout(redis.connect(), TIMEOUT_MS);
    await redis.ping();
    const version = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?';
    return ['✔', `Redis ${version} em ${host}:${port} responde`];
  } catch (err) {
    return ['✖', describeRedisError(cause ?? err, url, TIMEOUT_MS / 1000)];
  } finally {
    redis.disconnect();
  }
}

async function checkPort(config: AtendeConfig): Promise<[Mark, string]> {
  if (config.port === 0) return ['✔', 'Porta HTTP: qualquer porta livre (PORT=0)'];
  const state = await probePort(config.host, config.port);
  if (state.free) return ['✔', `Porta HTTP ${config.port} livre`];
  // Busy because Atende itself is up is not a problem.
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  try {
    const res = await fetch(`http://${host}:${config.port}/api/health`, { signal: AbortSignal.timeout(1500) });
    const body = (await res.json()) as { status?: string; checks?: unknown };
    if (body.checks) return ['✔', `Porta HTTP ${config.port}: um Atende em execução responde nela (estado: ${body.status ?? '?'})`];
  } catch {
    // Not an Atende: fall through to the port's own explanation.
  }
  return ['✖', `Porta HTTP: ${state.reason}.`];
}

async function checkMigrations(db: DbProbe, plugins: PluginDefinition[] | undefined): Promise<[Mark, string]> {
  if (!plugins) return ['–', 'Migrações: não verificadas (plugins com erro)'];
  const plan = migrationPlan(plugins);
  const total = plan.reduce((n, m) => n + m.migrations.length, 0);
  if (db.fresh) return ['✔', `Migrações: as ${total} serão aplicadas no primeiro início`];
  if (!db.pool) return ['–', 'Migrações: não verificadas (sem acesso ao banco)'];
  const pending = await pendingMigrations(db.pool, plan);
  if (!pending.length) return ['✔', `Migrações: nenhuma pendente (${total} aplicadas)`];
  return ['⚠', `Migrações: ${pending.length} pendente(s) (${summarise(pending)}); o próximo início as aplica, ou execute: npx atende migrate`];
}

function shortPath(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

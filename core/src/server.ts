import type { FastifyInstance } from 'fastify';
import type { AtendeConfig } from './config.ts';
import { buildApp, createLogger } from './app.ts';
import { startEmbeddedPostgres, type EmbeddedDb } from './db/embedded.ts';
import { ensureFirstSuperadmin } from './modules/identity/bootstrap.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** The superadmin this start created (first start only), with the generated password if one was. */
  firstAdmin?: { email: string; generatedPassword?: string };
  embedded?: EmbeddedDb;
  stop(reason?: string): Promise<void>;
}

/**
 * Starts Atende: the embedded PostgreSQL when no DATABASE_URL is configured,
 * then the app, then listen. SIGTERM/SIGINT drain: stop accepting, let
 * in-flight requests finish, close workers with a bound, tell sockets to
 * reconnect elsewhere.
 */
export interface StartOptions {
  handleSignals?: boolean;
  print?: (line: string) => void;
  /**
   * One line per finished step of the start (database, migrations), for a
   * person watching it; the details stay in the log. Without it the steps
   * are only logged.
   */
  onStep?: (line: string) => void;
}

export async function startServer(config: AtendeConfig, opts: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config);
  const print = opts.print ?? ((l: string) => process.stdout.write(`${l}\n`));
  const step = opts.onStep;
  // With steps shown, the details of each are for the log at debug level: the screen says what happened once.
  const detail = (m: string) => (step ? logger.debug(m) : logger.info(m));
  let embedded: EmbeddedDb | undefined;
  const t0 = Date.now();
  if (!config.databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, { info: detail, warn: (m) => logger.warn(m) });
    config = { ...config, databaseUrl: embedded.url };
    step?.(`✓ Banco de dados: PostgreSQL embutido em ${config.dataDir} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } else {
    step?.(`✓ Banco de dados: ${new URL(config.databaseUrl).host}`);
  }
  let app: FastifyInstance;
  let firstAdmin: RunningServer['firstAdmin'];
  try {
    const t1 = Date.now();
    app = await buildApp(config, {
      logger,
      onMigrated: (n) => step?.(n ? `✓ Migrações: ${n} aplicadas (${((Date.now() - t1) / 1000).toFixed(1)} s)` : '✓ Migrações em dia'),
    });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  try {
    const admin = await ensureFirstSuperadmin(app.kernel);
    // A caller showing steps prints the credentials in its own closing banner.
    if (admin.created && !step) {
      print('');
      print('  Primeiro superadmin criado:');
      print(`    e-mail: ${admin.email}`);
      if (admin.generatedPassword) print(`    senha:  ${admin.generatedPassword}   (mostrada só agora; troque-a depois de entrar)`);
      print('');
    }
    firstAdmin = admin.created && admin.email ? { email: admin.email, generatedPassword: admin.generatedPassword } : undefined;
    // A long accept queue (the kernel caps it at net.core.somaxconn): when thousands of agents
    // reconnect at once, connections wait to be accepted instead of being reset.
    await app.listen({ port: config.port, host: config.host, backlog: 4096 });
  } catch (err) {
    // Nothing may stay running when start fails (a busy port, a broken database).
    await app.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop') =>
    (stopping ??= (async () => {
      logger.info({ reason }, 'shutting down: draining requests');
      app.kernel.state.shuttingDown = true;
      const hardStop = setTimeout(() => {
        logger.error('shutdown bound exceeded; exiting');
        process.exit(1);
      }, config.shutdownTimeoutMs + 5000);
      hardStop.unref();
      // close() stops accepting, waits for in-flight requests, then runs onClose hooks (sockets, workers, bus, db).
      await app.close();
      await embedded?.stop();
      clearTimeout(hardStop);
      logger.info('stopped');
    })());

  if (opts.handleSignals !== false) {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => void stop(sig).then(() => process.exit(0), () => process.exit(1)));
  }
  return { app, url, embedded, stop, firstAdmin };
}

import type { FastifyInstance } from 'fastify';
import type { AtendeConfig } from './config.ts';
import { buildApp, createLogger } from './app.ts';
import { startEmbeddedPostgres, type EmbeddedDb } from './db/embedded.ts';
import { ensureFirstSuperadmin } from './modules/identity/bootstrap.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  embedded?: EmbeddedDb;
  stop(reason?: string): Promise<void>;
}

/**
 * Starts Atende: the embedded PostgreSQL when no DATABASE_URL is configured,
 * then the app, then listen. SIGTERM/SIGINT drain: stop accepting, let
 * in-flight requests finish, close workers with a bound, tell sockets to
 * reconnect elsewhere.
 */
export async function startServer(config: AtendeConfig, opts: { handleSignals?: boolean; print?: (line: string) => void } = {}): Promise<RunningServer> {
  const logger = createLogger(config);
  const print = opts.print ?? ((l: string) => process.stdout.write(`${l}\n`));
  let embedded: EmbeddedDb | undefined;
  if (!config.databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, { info: (m) => logger.info(m), warn: (m) => logger.warn(m) });
    config = { ...config, databaseUrl: embedded.url };
  }
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { logger });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  try {
    const admin = await ensureFirstSuperadmin(app.kernel);
    if (admin.created) {
      print('');
      print('  Primeiro superadmin criado:');
      print(`    e-mail: ${admin.email}`);
      if (admin.generatedPassword) print(`    senha:  ${admin.generatedPassword}   (mostrada só agora; troque-a depois de entrar)`);
      print('');
    }
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
  return { app, url, embedded, stop };
}

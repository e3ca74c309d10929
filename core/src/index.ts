export { buildApp, createLogger, migrationPlan } from './app.ts';
export { loadConfig, ConfigError, type AtendeConfig } from './config.ts';
export { startServer } from './server.ts';
export { runMigrations } from './db/migrate.ts';
export { openDatabase } from './db/orm.ts';
export { discoverPlugins } from './plugins/discover.ts';
export { startEmbeddedPostgres, embeddedStatus } from './db/embedded.ts';
export type { Kernel } from './kernel.ts';

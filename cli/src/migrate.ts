import { runMigrations } from '@atende/core';
import type { CliContext } from './context.ts';
import { withDatabase } from './database.ts';
import { configFrom } from './config.ts';

/**
 * `atende migrate`: applies pending kernel and plugin migrations, in
 * dependency order, under the kernel's advisory lock (so it is safe while
 * other nodes start). This is the upgrade step for installs with DATABASE_URL.
 */
export async function migrate(ctx: CliContext): Promise<void> {
  const config = configFrom(ctx);
  await withDatabase(
    config,
    ctx,
    async (db) => {
      const applied = await runMigrations(db.pool, db.plan, (line) => ctx.out(line));
      const total = db.plan.reduce((n, m) => n + m.migrations.length, 0);
      ctx.out(applied ? `${applied} migração(ões) aplicada(s); ${total} no total.` : `Nenhuma migração pendente (${total} aplicadas).`);
    },
    { schema: 'untouched' },
  );
}

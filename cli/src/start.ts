import { startServer } from '@atende/core';
import { CliError, type CliContext } from './context.ts';
import { missingUiBuilds } from './ui-builds.ts';
import { configFrom } from './config.ts';
import { probePort } from './ports.ts';

export interface StartOptions {
  role?: 'all' | 'api' | 'worker';
  port?: number;
}

/**
 * `atende start`: the server in the foreground. startServer starts the
 * embedded PostgreSQL when there is no DATABASE_URL, prints the first
 * superadmin's credentials once, and drains on SIGTERM/SIGINT.
 */
export async function start(ctx: CliContext, opts: StartOptions): Promise<void> {
  const config = configFrom(ctx, { ...(opts.role ? { role: opts.role } : {}), ...(opts.port !== undefined ? { port: opts.port } : {}) });

  // Checked before anything starts: finding out after the embedded database
  // and the migrations have run wastes seconds and leaves more to undo.
  if (config.port !== 0) {
    const port = await probePort(config.host, config.port);
    if (!port.free) throw new CliError(`Não é possível iniciar: ${port.reason}.`);
  }
  const missing = missingUiBuilds(config.rootDir);
  if (missing.length) ctx.err(`⚠ Interface não compilada (${missing.join(', ')}): as telas não serão servidas. Execute: npm run build:ui`);

  const t0 = Date.now();
  const server = await startServer(config, { print: ctx.out, onStep: ctx.out });
  ctx.out('');
  ctx.out(`✓ Atende pronto em ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  ctx.out('');
  ctx.out(`  Endereço:      ${server.url}`);
  if (server.firstAdmin) {
    ctx.out(`  Superadmin:    ${server.firstAdmin.email}`);
    if (server.firstAdmin.generatedPassword) ctx.out(`  Senha:         ${server.firstAdmin.generatedPassword}   (mostrada só agora; troque-a depois de entrar)`);
  } else {
    ctx.out('  Superadmin:    o criado na primeira inicialização (npx atende user create para outro usuário)');
  }
  ctx.out('  Demonstração:  npx atende seed --demo   (empresa de exemplo com agentes, filas, canal de testes e conversas)');
  ctx.out('');
  // The line tests and scripts wait for.
  ctx.out(`Atende em ${server.url}${config.role === 'all' ? '' : ` (papel: ${config.role})`}`);
  ctx.keepAlive = true;
}

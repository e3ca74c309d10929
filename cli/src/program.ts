import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError, Option } from 'commander';
import type { Profile } from '@atende/core/sdk';
import { CliError, type CliContext } from './context.ts';
import { portNumber, positiveInt } from './options.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const ENVIRONMENT_HELP = `
Configuração por variáveis de ambiente (todas em docs/configuration.md):
  DATABASE_URL     PostgreSQL 15+; sem ela, um PostgreSQL embutido em ATENDE_DATA_DIR
  REDIS_URL        Redis para filas e eventos entre nós; sem ela, filas no PostgreSQL
  ATENDE_DATA_DIR  dados locais (padrão ./data, relativo à raiz da instalação)
  PORT, HOST       endereço HTTP (padrão 0.0.0.0:8080)

Exemplos:
  npx atende start
  npx atende doctor
  npx atende tenant create --name "Minha Empresa" --max-users 20
  npx atende user create --email ana@empresa.com.br --password 'Senha#123' --profile admin --tenant 2`;

/** commander prints some errors over two lines (a suggestion after a newline); one line is the contract. */
const oneLine = (text: string) => `${text.trim().split(/\s*\n\s*/).join(' ')}\n`;

function writeLines(write: (line: string) => void) {
  return (text: string) => {
    for (const line of text.replace(/\n$/, '').split('\n')) write(line);
  };
}

/**
 * The command tree. Command modules are imported when their command runs, so
 * `--help` and argument errors answer without loading the kernel.
 */
export function buildProgram(ctx: CliContext, setExitCode: (code: number) => void): Command {
  const program = new Command();
  // Both settings are inherited by every subcommand created afterwards.
  program.exitOverride();
  program.configureOutput({
    writeOut: writeLines(ctx.out),
    writeErr: writeLines(ctx.err),
    outputError: (text, write) => write(oneLine(text)),
  });

  program
    .name('atende')
    .description('Inicia e administra uma instalação do Atende (atendimento multiempresa).')
    .version(VERSION, '-v, --version', 'mostra a versão')
    .helpOption('-h, --help', 'mostra esta ajuda')
    .helpCommand('help [comando]', 'mostra a ajuda de um comando')
    .addHelpText('after', ENVIRONMENT_HELP);

  program
    .command('start')
    .description('inicia o servidor (PostgreSQL embutido quando não há DATABASE_URL); imprime a URL e, na primeira vez, as credenciais do superadmin')
    .addOption(new Option('--role <papel>', 'api: só HTTP; worker: filas e sessões de canais; all: tudo (padrão: ATENDE_ROLE ou all)').choices(['api', 'worker', 'all']))
    .option('--port <porta>', 'porta HTTP (padrão: PORT ou 8080; 0 = qualquer porta livre)', portNumber)
    .action(async (opts: { role?: 'api' | 'worker' | 'all'; port?: number }) => {
      const { start } = await import('./start.ts');
      await start(ctx, opts);
    });

  program
    .command('migrate')
    .description('aplica as migrações pendentes do núcleo e dos plugins (passo de atualização)')
    .action(async () => {
      const { migrate } = await import('./migrate.ts');
      await migrate(ctx);
    });

  program
    .command('doctor')
    .description('verifica Node, configuração, banco, Redis, porta, migrações e interface, e diz como corrigir cada problema')
    .action(async () => {
      const { doctor } = await import('./doctor.ts');
      setExitCode(await doctor(ctx));
    });

  const plugins = program.command('plugins').description('lista, ativa e desativa plugins por tenant');
  plugins
    .command('list')
    .description('lista os plugins instalados (com --tenant, o estado de cada um nesse tenant)')
    .option('--tenant <id>', 'tenant cujo estado mostrar', positiveInt)
    .action(async (opts: { tenant?: number }) => {
      const { pluginsList } = await import('./plugins.ts');
      await pluginsList(ctx, opts);
    });
  for (const [name, enabled] of [['enable', true], ['disable', false]] as const) {
    plugins
      .command(name)
      .description(`${enabled ? 'ativa' : 'desativa'} um plugin para um tenant${enabled ? '' : ' (suas rotas respondem 404 e seus menus somem para esse tenant)'}`)
      .argument('<plugin>', 'id do plugin (veja: atende plugins list)')
      .requiredOption('--tenant <id>', 'tenant', positiveInt)
      .action(async (id: string, opts: { tenant: number }) => {
        const { pluginsSetEnabled } = await import('./plugins.ts');
        await pluginsSetEnabled(ctx, id, opts, enabled);
      });
  }

  const plugin = program.command('plugin').description('cria um plugin novo a partir dos modelos (servidor e interface)');
  plugin
    .command('create')
    .description(
      'gera plugins/<id> e ui-plugins/<id> que já passam nos testes, com contrato (src/contract.ts), rotas tipadas e tela: '
      + 'feature (recurso com tela própria, menu, configuração por empresa e eventos ao vivo — comece por aqui), '
      + 'tool (ferramenta do agente no painel do atendimento) ou channel (adaptador, provedor falso local e kit de conformidade; id channel-<nome>)',
    )
    .addArgument(new Argument('<tipo>', 'feature, tool ou channel').choices(['feature', 'tool', 'channel']))
    .argument('<nome>', 'letras minúsculas, números e hífens (ex.: minha-loja)')
    .option('--dir <pasta>', 'instalação onde criar (padrão: esta)')
    .addHelpText(
      'after',
      '\nExemplos:\n'
        + '  npx atende plugin create feature lembretes  → plugins/lembretes e ui-plugins/lembretes (tela em /lembretes)\n'
        + '  npx atende plugin create tool anotacoes     → plugins/anotacoes e ui-plugins/anotacoes (painel do atendimento)\n'
        + '  npx atende plugin create channel foo        → plugins/channel-foo e ui-plugins/channel-foo\n'
        + '\nPasso a passo em docs/plugin-authoring.md.',
    )
    .action(async (kind: string, name: string, opts: { dir?: string }) => {
      const { pluginCreate } = await import('./plugin-create.ts');
      await pluginCreate(ctx, kind, name, opts);
    });

  const tenant = program.command('tenant').description('cria, lista, desativa e reativa tenants (empresas)');
  tenant
    .command('create')
    .description('cria um tenant ativo')
    .requiredOption('--name <nome>', 'nome da empresa')
    .option('--max-users <n>', 'limite de usuários (padrão 10)', positiveInt)
    .option('--max-connections <n>', 'limite de conexões de canais (padrão 5)', positiveInt)
    .action(async (opts: { name: string; maxUsers?: number; maxConnections?: number }) => {
      const { tenantCreate } = await import('./tenants.ts');
      await tenantCreate(ctx, opts);
    });
  tenant
    .command('list')
    .description('lista os tenants com estado, usuários e limites')
    .action(async () => {
      const { tenantList } = await import('./tenants.ts');
      await tenantList(ctx);
    });
  tenant
    .command('disable')
    .description('desativa um tenant: seus usuários deixam de entrar (o tenant 1, da plataforma, não pode)')
    .argument('<id>', 'id do tenant', positiveInt)
    .action(async (id: number) => {
      const { tenantSetStatus } = await import('./tenants.ts');
      await tenantSetStatus(ctx, id, 'inactive');
    });
  tenant
    .command('enable')
    .description('reativa um tenant desativado')
    .argument('<id>', 'id do tenant', positiveInt)
    .action(async (id: number) => {
      const { tenantSetStatus } = await import('./tenants.ts');
      await tenantSetStatus(ctx, id, 'active');
    });

  const user = program.command('user').description('cria usuários');
  user
    .command('create')
    .description('cria um usuário; a senha precisa de 7+ caracteres com letras, números e um caractere especial')
    .requiredOption('--email <email>', 'e-mail de login (único na instalação)')
    .requiredOption('--password <senha>', 'senha inicial')
    .addOption(new Option('--profile <perfil>', 'perfil').choices(['superadmin', 'admin', 'super', 'user']).makeOptionMandatory())
    .option('--tenant <id>', 'tenant do usuário (obrigatório, exceto superadmin, que fica no tenant 1)', positiveInt)
    .option('--name <nome>', 'nome exibido (padrão: a parte do e-mail antes do @)')
    .action(async (opts: { email: string; password: string; profile: Profile; tenant?: number; name?: string }) => {
      const { userCreate } = await import('./users.ts');
      await userCreate(ctx, opts);
    });

  program
    .command('seed')
    .description('cria dados de demonstração (idempotente)')
    .option('--demo', 'tenant "Demo" com um admin, um supervisor e um agente (a senha é impressa)')
    .action(async (opts: { demo?: boolean }) => {
      const { seed } = await import('./seed.ts');
      await seed(ctx, opts);
    });

  const mail = program.command('mail').description('caixa de saída de e-mails (quando não há SMTP configurado)');
  mail
    .command('list')
    .description('lista os e-mails guardados, mais recentes primeiro')
    .option('--limit <n>', 'quantos mostrar', positiveInt, 20)
    .action(async (opts: { limit: number }) => {
      const { mailList } = await import('./mail.ts');
      await mailList(ctx, opts);
    });
  mail
    .command('show')
    .description('mostra um e-mail completo (ex.: o link de redefinição de senha)')
    .argument('<id>', 'id do e-mail (veja: atende mail list)')
    .action(async (id: string) => {
      const { mailShow } = await import('./mail.ts');
      await mailShow(ctx, id);
    });

  return program;
}

/**
 * Runs one command line and returns its exit code; never calls process.exit,
 * so tests run commands in-process. `ctx.keepAlive` tells the caller that a
 * server is now running and the process must stay up.
 */
export async function run(argv: string[], ctx: CliContext): Promise<number> {
  let code = 0;
  const program = buildProgram(ctx, (c) => (code = c));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    // commander has already printed its message (or the help/version it was asked for).
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof CliError) {
      const [first, ...rest] = err.message.split('\n');
      ctx.err(`Erro: ${first}`);
      for (const line of rest) ctx.err(line);
      return err.exitCode;
    }
    // A bug or an unexpected failure: its message, not a stack trace, is what helps a user.
    ctx.err(`Erro: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

import { describe, expect, it } from 'vitest';
import { runCaptured } from './capture.ts';

/** Every command path of the tree, each must answer --help. */
const COMMANDS = [
  [],
  ['start'],
  ['migrate'],
  ['doctor'],
  ['plugins'],
  ['plugins', 'list'],
  ['plugins', 'enable'],
  ['plugins', 'disable'],
  ['tenant'],
  ['tenant', 'create'],
  ['tenant', 'list'],
  ['tenant', 'disable'],
  ['tenant', 'enable'],
  ['user'],
  ['user', 'create'],
  ['seed'],
  ['mail'],
  ['mail', 'list'],
  ['mail', 'show'],
];

// No database is reachable here: argument errors must be caught before any connection.
const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende' };

describe('atende command line', () => {
  it.each(COMMANDS.map((c) => [c.join(' ') || '(root)', c]))('%s --help answers with usage and exit code 0', async (_name, cmd) => {
    const r = await runCaptured([...(cmd as string[]), '--help'], env);
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^Usage: atende/);
    expect(r.err).toEqual([]);
  });

  it('lists every command in the root help', async () => {
    const r = await runCaptured(['--help'], env);
    for (const name of ['start', 'migrate', 'doctor', 'plugins', 'tenant', 'user', 'seed', 'mail']) expect(r.out.join('\n')).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it.each([
    [['start', '--role', 'boss'], /argument 'boss' is invalid.*api, worker, all/],
    [['start', '--port', '70000'], /'70000' is invalid.*porta entre 0 e 65535/],
    [['strat'], /unknown command 'strat'.*start/],
    [['tenant', 'disable', 'abc'], /'abc' is invalid.*número inteiro positivo/],
    [['tenant', 'create'], /required option '--name <nome>'/],
    [['plugins', 'disable', 'demands'], /required option '--tenant <id>'/],
    [['user', 'create', '--email', 'a@b.co', '--password', 'x', '--profile', 'king'], /'king' is invalid/],
    [['tenant', 'list', 'extra'], /too many arguments/],
    [['doctor', '--fast'], /unknown option '--fast'/],
  ])('a bad argument (%j) gets one error line and exit code 1', async (argv, message) => {
    const r = await runCaptured(argv as string[], env);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(message as RegExp);
  });

  it('names the bad variable of an invalid configuration, without a stack trace', async () => {
    const r = await runCaptured(['migrate'], { PORT: 'abc', DATABASE_URL: 'mysql://x' });
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^Erro: Configuração inválida: .*PORT: .*DATABASE_URL: /);
    expect(r.err[0]).not.toMatch(/\bat .*\.ts/);
  });

  it('refuses to disable tenant 1 before touching the database', async () => {
    const r = await runCaptured(['tenant', 'disable', '1'], env);
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['Erro: O tenant 1 (plataforma) não pode ser desativado nem excluído']);
  });

  it('refuses a weak password and a missing tenant with the rule in one line', async () => {
    const weak = await runCaptured(['user', 'create', '--email', 'ana@empresa.com.br', '--password', 'abcdefgh', '--profile', 'admin', '--tenant', '2'], env);
    expect(weak.code).toBe(1);
    expect(weak.err).toEqual(['Erro: A senha deve ter pelo menos 7 caracteres, com letras, números e um caractere especial']);
    const noTenant = await runCaptured(['user', 'create', '--email', 'ana@empresa.com.br', '--password', 'Senha#123', '--profile', 'user'], env);
    expect(noTenant.code).toBe(1);
    expect(noTenant.err[0]).toMatch(/--tenant <id>/);
  });

  it('reports an unreachable database in one line, for any command', async () => {
    const r = await runCaptured(['tenant', 'list'], env);
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^Erro: PostgreSQL em 127\.0\.0\.1:1 não responde \(conexão recusada\)\. Inicie-o: .+, ou remova DATABASE_URL para usar o PostgreSQL embutido\.$/);
  });
});

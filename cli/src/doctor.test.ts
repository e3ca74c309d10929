import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@atende/core/testing';
import { runCaptured } from './capture.ts';

const STACK = /\bat .+:\d+:\d+/;

describe('atende doctor', () => {
  it('explains a stopped PostgreSQL in one line and exits 1', async () => {
    const r = await runCaptured(['doctor'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende', PORT: '0' });
    expect(r.code).toBe(1);
    const about = r.out.filter((l) => l.includes('127.0.0.1:1'));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatch(/^✖ PostgreSQL em 127\.0\.0\.1:1 não responde \(conexão recusada\)\. Inicie-o: .+, ou remova DATABASE_URL para usar o PostgreSQL embutido\.$/);
    // Checks that need the database say they were skipped rather than failing a second time.
    expect(r.out).toContain('– Migrações: não verificadas (sem acesso ao banco)');
    expect(r.out.join('\n')).not.toMatch(STACK);
  });

  it('explains an unreachable Redis in one line', async () => {
    const r = await runCaptured(['doctor'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende', REDIS_URL: 'redis://127.0.0.1:1', PORT: '0' });
    const about = r.out.filter((l) => l.includes('Redis'));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatch(/^✖ Redis em 127\.0\.0\.1:1 não responde \(conexão recusada\)\. Inicie-o: .+, ou remova REDIS_URL/);
  });

  it('names an invalid variable and still runs the other checks', async () => {
    const r = await runCaptured(['doctor'], { PORT: 'oito', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende' });
    expect(r.code).toBe(1);
    expect(r.out[1]).toMatch(/^✖ Configuração inválida: PORT: .*docs\/configuration\.md/);
    expect(r.out.some((l) => l.startsWith('✖ PostgreSQL em 127.0.0.1:1'))).toBe(true);
  });

  it('checks in order: Node, configuration, database, Redis, port, plugins, migrations, UI', async () => {
    const r = await runCaptured(['doctor'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende', PORT: '0' });
    const topics = r.out.slice(0, 8).map((l) => l.slice(2).split(/[\s:]/)[0]);
    expect(topics).toEqual(['Node', 'Configuração', 'PostgreSQL', 'Redis', 'Porta', 'Plugins', 'Migrações', 'Interface']);
    expect(r.out[8]).toMatch(/problema\(s\) encontrado\(s\)\.$/);
  });

  it('reports a port in use', async () => {
    const net = await import('node:net');
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await runCaptured(['doctor'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende', HOST: '127.0.0.1', PORT: String(port) });
      expect(r.out.find((l) => l.includes('Porta HTTP'))).toMatch(new RegExp(`^✖ Porta HTTP: a porta ${port} já está em uso por outro processo\\.`));
    } finally {
      server.close();
    }
  });

  describe('with a reachable database', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ workers: false });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('passes the database and migration checks', async () => {
      const env: Record<string, string> = { DATABASE_URL: t.databaseUrl, PORT: '0' };
      if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
      const r = await runCaptured(['doctor'], env);
      expect(r.out.find((l) => l.includes('PostgreSQL'))).toMatch(/^✔ PostgreSQL \d+.* responde \(banco atende_t_/);
      expect(r.out.find((l) => l.startsWith('✔ Migrações'))).toMatch(/nenhuma pendente/);
      if (env.REDIS_URL) expect(r.out.find((l) => l.includes('Redis'))).toMatch(/^✔ Redis .* responde$/);
      // The only check allowed to fail here is the UI build, which `npm test` does before vitest.
      const failed = r.out.filter((l) => l.startsWith('✖'));
      expect(failed.filter((l) => !l.startsWith('✖ Interface'))).toEqual([]);
      expect(r.code).toBe(failed.length ? 1 : 0);
    });

    it('counts pending migrations as something to know, not a failure', async () => {
      await t.sql.query(`DELETE FROM atende_migrations WHERE module = 'plugin:demands'`);
      const r = await runCaptured(['doctor'], { DATABASE_URL: t.databaseUrl, PORT: '0' });
      expect(r.out.find((l) => l.includes('Migrações'))).toMatch(/^⚠ Migrações: 1 pendente\(s\) \(plugin:demands\/0001_init\); .*npx atende migrate$/);
      // Other commands refuse to work on an outdated schema they do not own.
      const list = await runCaptured(['tenant', 'list'], { DATABASE_URL: t.databaseUrl });
      expect(list.code).toBe(1);
      expect(list.err[0]).toMatch(/1 migração\(ões\) pendente\(s\) \(plugin:demands\/0001_init\)\. Aplique-as primeiro: npx atende migrate$/);
    });
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedStatus, startEmbeddedPostgres } from '@atende/core';
import { runCaptured } from './capture.ts';

/** Processes whose command line mentions the data dir: a postgres left behind would show up here. */
function processesUsing(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (cmdline.includes(dir) && state !== 'Z') pids.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return pids;
}

const TIMEOUT = 120_000;

describe.skipIf(process.platform !== 'linux')('commands on the embedded PostgreSQL', () => {
  let dataDir: string;
  // No DATABASE_URL: the commands must use the data dir's own PostgreSQL.
  const env = () => ({ ATENDE_DATA_DIR: dataDir, PORT: '0' });

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'atende-cli-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(
    'starts it for the command, brings the schema up to date, and leaves nothing running',
    async () => {
      const r = await runCaptured(['tenant', 'create', '--name', 'Embutida'], env());
      expect(r.err.filter((l) => l.startsWith('Erro'))).toEqual([]);
      expect(r.code).toBe(0);
      expect(r.out).toEqual([expect.stringMatching(/^Tenant 2 criado: Embutida/)]);
      expect((await embeddedStatus(dataDir)).running).toBe(false);
      expect(processesUsing(dataDir)).toEqual([]);

      const doctor = await runCaptured(['doctor'], env());
      expect(doctor.out.find((l) => l.includes('PostgreSQL embutido'))).toMatch(/^✔ PostgreSQL embutido em .+ inicia e responde \(porta \d+\)$/);
      expect(doctor.out.find((l) => l.includes('Migrações'))).toMatch(/^✔ Migrações: nenhuma pendente/);
      expect(processesUsing(dataDir)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'shares the PostgreSQL of a running Atende instead of starting a second one, and leaves it running',
    async () => {
      const db = await startEmbeddedPostgres(dataDir, { info: () => undefined, warn: () => undefined });
      try {
        const list = await runCaptured(['tenant', 'list'], env());
        expect(list.code).toBe(0);
        expect(list.out.some((l) => /^2\s+Embutida\s+ativo/.test(l))).toBe(true);
        const doctor = await runCaptured(['doctor'], env());
        expect(doctor.out.find((l) => l.includes('PostgreSQL embutido'))).toMatch(/em execução \(pid \d+, porta \d+\)$/);
        const status = await embeddedStatus(dataDir);
        expect(status).toMatchObject({ running: true, port: db.port });
      } finally {
        await db.stop();
      }
      expect(processesUsing(dataDir)).toEqual([]);
    },
    TIMEOUT,
  );
});

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'atende.js');

/** The real executable, as `npx atende` runs it: its own process, exit code and streams. */
function atende(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('bin/atende.js', { timeout: 60_000 }, () => {
  it('prints the help and exits 0', () => {
    const r = atende(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: atende \[options\] \[command\]/);
    expect(r.stderr).toBe('');
  });

  it('exits 1 with one line on stderr for a bad argument', () => {
    const r = atende(['start', '--port', 'http']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--port <porta>/);
  });

  it('exits 1 for a command that fails, with the reason on one line', () => {
    const r = atende(['tenant', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^Erro: PostgreSQL em 127\.0\.0\.1:1 não responde/)]);
  });
});

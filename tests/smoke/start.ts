/**
 * Smoke test of the embedded default (docs/performance.md S1), run by .ci/run and not by
 * `npm test`:
 *
 *   node --import tsx tests/smoke/start.ts
 *
 * In a fresh temporary data dir, with DATABASE_URL and REDIS_URL unset, it runs
 * `atende start` twice. Each time it waits for GET /api/health to answer 200,
 * prints how long that took, stops the server with SIGTERM and checks that it
 * exited 0 and left no PostgreSQL of that data dir behind. The first start
 * (cold: initdb, migrations, first superadmin) must print the superadmin's
 * credentials; the second (warm) must not, and must be healthy in under 10 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const WARM_TARGET_MS = 10_000;

class SmokeFailure extends Error {}

interface Run {
  child: ChildProcess;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startAtende(env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/src/bin.ts', 'start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      output.push(...lines);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, output, exited };
}

/** Waits for "Atende em <url>" and then for /api/health to answer 200; returns the milliseconds since `t0`. */
async function waitHealthy(run: Run, t0: number): Promise<{ ms: number; url: string }> {
  let exitedEarly = false;
  void run.exited.then(() => (exitedEarly = true));
  let url: string | undefined;
  while (performance.now() - t0 < HEALTH_TIMEOUT_MS) {
    if (exitedEarly) throw new SmokeFailure('atende start exited before /api/health answered 200');
    url ??= run.output.map((l) => /Atende em (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean);
    if (url) {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
      if (res?.status === 200) return { ms: performance.now() - t0, url };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new SmokeFailure(`/api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s`);
}

async function stop(run: Run): Promise<void> {
  run.child.kill('SIGTERM');
  const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), STOP_TIMEOUT_MS).unref());
  const result = await Promise.race([run.exited, timer]);
  if (result === 'timeout') throw new SmokeFailure(`did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
  if (result.code !== 0) throw new SmokeFailure(`exited with code ${result.code ?? 'none'} (signal ${result.signal ?? 'none'}) after SIGTERM, expected 0`);
}

/** Live processes whose command line names the data dir (or the cluster dir it records): the embedded postmaster and its backends. */
function processesOf(dataDir: string): number[] {
  const dirs = [dataDir];
  try {
    // As root the cluster may live outside the data dir; embedded-pg.json then says where.
    const clusterDir = (JSON.parse(readFileSync(path.join(dataDir, 'embedded-pg.json'), 'utf8')) as { clusterDir?: string }).clusterDir;
    if (clusterDir) dirs.push(clusterDir);
  } catch {
    // Not written yet.
  }
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (dirs.some((d) => cmdline.includes(d))) pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

async function assertNothingLeft(dataDir: string): Promise<void> {
  // The postmaster has exited when stop() resolved; give its last backends a moment.
  for (let i = 0; i < 20 && processesOf(dataDir).length; i++) await new Promise((r) => setTimeout(r, 100));
  const left = processesOf(dataDir);
  if (left.length) throw new SmokeFailure(`processes of ${dataDir} still running after stop: ${left.join(', ')}`);
}

async function main(): Promise<number> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'atende-smoke-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ATENDE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ATENDE_LOG_LEVEL: 'warn' };
  // The point is the embedded default: nothing configured.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'ATENDE_TEST_DATABASE_URL', 'ATENDE_ADMIN_EMAIL', 'ATENDE_ADMIN_PASSWORD', 'ATENDE_ROLE']) delete env[name];

  let current: Run | undefined;
  // Every problem is collected, and the warm start is measured even after a failed stop, so one run reports everything.
  const failures: string[] = [];
  const check = async (what: () => Promise<void>) => {
    try {
      await what();
    } catch (err) {
      if (!(err instanceof SmokeFailure)) throw err;
      failures.push(err.message);
      if (current) {
        console.error(`--- output of atende start (${err.message}) ---`);
        for (const line of current.output) console.error(line);
        console.error('---');
      }
    }
  };
  try {
    for (const phase of ['cold', 'warm'] as const) {
      const t0 = performance.now();
      current = startAtende(env);
      let healthy: { ms: number; url: string } | undefined;
      await check(async () => {
        healthy = await waitHealthy(current!, t0);
      });
      if (!healthy) break;
      const credentials = current.output.some((l) => /^\s+senha:\s+\S+/i.test(l));
      if (phase === 'cold' && !credentials) failures.push("the first start did not print the first superadmin's password");
      if (phase === 'warm' && credentials) failures.push('a second start printed superadmin credentials again');
      const target = phase === 'warm' ? ` (S1 target < ${WARM_TARGET_MS / 1000} s)` : '';
      console.log(`S1 ${phase} start: ${(healthy.ms / 1000).toFixed(2)} s until ${healthy.url}/api/health answered 200${target}`);
      if (phase === 'warm' && healthy.ms > WARM_TARGET_MS) failures.push(`warm start took ${(healthy.ms / 1000).toFixed(2)} s, over the ${WARM_TARGET_MS / 1000} s target`);
      await check(() => stop(current!));
      await check(() => assertNothingLeft(dataDir));
      current = undefined;
    }
    if (failures.length) {
      for (const f of failures) console.error(`smoke test FAILED: ${f}`);
      return 1;
    }
    console.log('smoke test passed: both starts healthy, SIGTERM exits 0, no PostgreSQL left behind');
    return 0;
  } finally {
    if (current && current.child.exitCode === null) {
      current.child.kill('SIGKILL');
      await current.exited;
    }
    // Whatever this run started and failed to stop: its own data dir's processes, by pid.
    for (const pid of processesOf(dataDir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    for (let i = 0; i < 50 && processesOf(dataDir).length; i++) await new Promise((r) => setTimeout(r, 100));
    await fs.rm(dataDir, { recursive: true, force: true, maxRetries: 5 }).catch((err: Error) => console.error(`could not remove ${dataDir}: ${err.message}`));
  }
}

process.exit(await main());

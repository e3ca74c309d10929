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
 * start far past the 10 s S1 target (QUALITY.md). Plain Node with no
 * dependencies on purpose: it runs before node_modules exists.
 *
 * Staleness is decided by content hashes, not timestamps, so a fresh clone or
 * an rsync'd copy builds once and a touched-but-unchanged file rebuilds nothing.
 * Stamps: node_modules/.atende-install.json and <workspace>/dist/.atende-build.json,
 * written only after success (a failed build is retried next time).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const force = process.argv.includes('--force');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);

/**
 * Inputs every UI build shares: the lock file (dependency versions), and the
 * shell's module-federation settings and SDK, which each remote bundles a
 * fallback copy of.
 */
const SHARED_UI_INPUTS = ['package-lock.json', 'ui-shell/mf-shared.ts', 'ui-shell/package.json', 'ui-shell/src/sdk'];

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

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} falhou (código ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

// 1. Dependencies
const manifests = ['package.json', 'package-lock.json', ...workspaces().map((d) => path.join(d, 'package.json'))];
const installStamp = path.join(ROOT, 'node_modules', '.atende-install.json');
const installed = readJson(installStamp)?.hash;
if (force || installed !== fingerprint(manifests, process.version)) {
  run('npm', ['install', '--no-audit', '--no-fund']);
  // npm may rewrite the lock file, so the stamp is taken after it ran.
  fs.writeFileSync(installStamp, `${JSON.stringify({ hash: fingerprint(manifests, process.version), at: new Date().toISOString() })}\n`);
} else {
  console.log('Dependências em dia.');
}

// 2. Builds (the shell and the UI plugins)
const built = [];
for (const dir of workspaces()) {
  const pkg = readJson(path.join(ROOT, dir, 'package.json'));
  if (!pkg?.scripts?.build) continue;
  const hash = fingerprint([dir, ...SHARED_UI_INPUTS]);
  const stamp = path.join(ROOT, dir, 'dist', '.atende-build.json');
  if (!force && readJson(stamp)?.hash === hash) continue;
  console.log(`Compilando ${dir}…`);
  run('npm', ['run', 'build', '--workspace', dir]);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, `${JSON.stringify({ hash, at: new Date().toISOString() })}\n`);
  built.push(dir);
}
if (!built.length) console.log('Interface em dia.');

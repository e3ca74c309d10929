/**
 * Entry point of `atende` (and of `node --import tsx cli/src/bin.ts`): the
 * only CLI module that touches the process itself.
 */
import type { CliContext } from './context.ts';
import { run } from './program.ts';

const ctx: CliContext = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

// `atende tenant list | head` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' && !ctx.keepAlive) process.exit(0);
});

const code = await run(process.argv.slice(2), ctx);

// Exit explicitly: libraries may keep handles open after a command, and the
// embedded PostgreSQL's exit hook would otherwise turn any code into 0 at
// `beforeExit`. A started server keeps running until SIGTERM/SIGINT.
if (!ctx.keepAlive) process.exit(code);

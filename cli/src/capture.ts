import type { CliContext } from './context.ts';
import { run } from './program.ts';

export interface Captured {
  code: number;
  out: string[];
  err: string[];
  keepAlive: boolean;
}

/** Runs one command line in this process with its own environment and collects what it printed. */
export async function runCaptured(argv: string[], env: Record<string, string | undefined>): Promise<Captured> {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = { env, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await run(argv, ctx);
  return { code, out, err, keepAlive: !!ctx.keepAlive };
}

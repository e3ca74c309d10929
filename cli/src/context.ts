/**
 * What every command receives instead of reaching for globals: the
 * environment it was started with and where to write. `bin.ts` passes the real
 * process; tests pass their own and read the lines back.
 */
export interface CliContext {
  env: Record<string, string | undefined>;
  /** One line of normal output (stdout). */
  out(line: string): void;
  /** One line of diagnostics or progress (stderr). */
  err(line: string): void;
  /** Set by `start`: the server keeps the process alive after the command returns. */
  keepAlive?: boolean;
}

/**
 * A failure the user can fix, reported as one line without a stack trace.
 * Anything else reaching the top is a bug and is reported with its message.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

import { ConfigError, loadConfig, type AtendeConfig } from '@atende/core';
import { CliError, type CliContext } from './context.ts';

/** The install's configuration; a bad variable is reported by name, without a stack. */
export function configFrom(ctx: CliContext, overrides: Partial<AtendeConfig> = {}): AtendeConfig {
  try {
    return loadConfig(ctx.env, overrides);
  } catch (err) {
    // One line, each issue naming its variable (e.g. "PORT: Invalid input: expected number").
    if (err instanceof ConfigError) throw new CliError(`Configuração inválida: ${err.issues.join('; ')}`);
    throw err;
  }
}

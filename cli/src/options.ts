import { InvalidArgumentError } from 'commander';

/** Argument parsers: a bad value becomes commander's one-line "invalid argument" error. */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('deve ser um número inteiro positivo.');
  }
  return Number(value);
}

export function portNumber(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('deve ser uma porta entre 0 e 65535 (0 = qualquer porta livre).');
  return Number(value);
}

import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { pickQuickMessage, resolveQuickMessage, slashKey } from './quick-message-resolver.ts';

const list = [
  { id: 1, key: 'bomdia' },
  { id: 2, key: 'boa' },
  { id: 3, key: 'boatarde' },
  { id: 4, key: 'Pix' },
];

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).code;
  }
  return undefined;
};

describe('quick message slash rule', () => {
  it('takes the first word after the slash as the key', () => {
    expect(slashKey('/bomdia')).toBe('bomdia');
    expect(slashKey('  /pix para o cliente')).toBe('pix');
    expect(slashKey('bomdia')).toBe('bomdia');
  });

  it('refuses an empty message with ERR_INVALID_MESSAGE', () => {
    expect(codeOf(() => slashKey(''))).toBe('ERR_INVALID_MESSAGE');
    expect(codeOf(() => slashKey('/'))).toBe('ERR_INVALID_MESSAGE');
    expect(codeOf(() => slashKey('  /   '))).toBe('ERR_INVALID_MESSAGE');
    expect(codeOf(() => slashKey(undefined))).toBe('ERR_INVALID_MESSAGE');
  });

  it('takes a single prefix match and an exact key even when it prefixes others', () => {
    expect(resolveQuickMessage('/bom', list).id).toBe(1);
    expect(resolveQuickMessage('/boa', list).id).toBe(2);
    expect(resolveQuickMessage('/boat', list).id).toBe(3);
    expect(resolveQuickMessage('/PIX', list).id).toBe(4);
  });

  it('refuses no match and several matches without an exact key', () => {
    expect(codeOf(() => resolveQuickMessage('/nada', list))).toBe('ERR_QUICK_MESSAGE_NOT_FOUND');
    expect(codeOf(() => resolveQuickMessage('/bo', list))).toBe('ERR_QUICK_MESSAGE_AMBIGUOUS');
    expect(codeOf(() => pickQuickMessage('x', []))).toBe('ERR_QUICK_MESSAGE_NOT_FOUND');
  });

  it('lists the candidates of an ambiguous shortcut for the UI', () => {
    try {
      resolveQuickMessage('/bo', list);
    } catch (err) {
      expect((err as AppError).extra.candidates).toEqual([
        { id: 1, key: 'bomdia' },
        { id: 2, key: 'boa' },
        { id: 3, key: 'boatarde' },
      ]);
    }
    expect.assertions(1);
  });
});

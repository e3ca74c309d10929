import { describe, expect, it } from 'vitest';
import { cpfCnpjKind, isCpfOrCnpj, isEmail, isStrongPassword, maskCpfCnpj } from './index.ts';

describe('shared validation (server and screens use these same functions)', () => {
  it('passwords: 7+ characters with a letter, a digit and a special character; accented letters are letters', () => {
    expect(isStrongPassword('abc123#')).toBe(true);
    expect(isStrongPassword('çã#1234')).toBe(true);
    // `ç` is a letter, not the special character the rule asks for.
    expect(isStrongPassword('abc123ç')).toBe(false);
    expect(isStrongPassword('ab1#')).toBe(false);
    expect(isStrongPassword('abcdefg#')).toBe(false);
    expect(isStrongPassword('1234567#')).toBe(false);
    expect(isStrongPassword('abc 1234')).toBe(false);
  });

  it('CPF and CNPJ, including the alphanumeric CNPJ issued from July 2026', () => {
    expect(cpfCnpjKind('529.982.247-25')).toBe('cpf');
    expect(cpfCnpjKind('52998224725')).toBe(null);
    expect(cpfCnpjKind('52998224725', { punctuation: 'optional' })).toBe('cpf');
    expect(cpfCnpjKind('11.222.333/0001-81')).toBe('cnpj');
    expect(cpfCnpjKind('12.ABC.345/01DE-35')).toBe('cnpj');
    expect(isCpfOrCnpj('12ABC34501DE35')).toBe(true);
    expect(isCpfOrCnpj('12.abc.345/01de-35')).toBe(true);
    expect(isCpfOrCnpj('12.ABC.345/01DE-36')).toBe(false);
    expect(isCpfOrCnpj('111.111.111-11')).toBe(false);
    expect(isCpfOrCnpj('abc')).toBe(false);
  });

  it('masks as the user types, letters kept for the new CNPJ', () => {
    expect(maskCpfCnpj('52998224725')).toBe('529.982.247-25');
    expect(maskCpfCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskCpfCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskCpfCnpj('529')).toBe('529');
  });

  it('e-mail: trimmed, dotted domain, no spaces', () => {
    expect(isEmail(' ana@empresa.com.br ')).toBe(true);
    expect(isEmail('ana@empresa')).toBe(false);
    expect(isEmail('ana @empresa.com')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { cpfCnpjKind, isValidCnpj, isValidCpf } from './document.ts';

describe('CPF and CNPJ', () => {
  it('accepts a CPF with its punctuation and right check digits', () => {
    expect(cpfCnpjKind('529.982.247-25')).toBe('cpf');
    expect(isValidCpf('52998224725')).toBe(true);
  });

  it('refuses a CPF with a wrong check digit, repeated digits or no punctuation', () => {
    expect(cpfCnpjKind('529.982.247-24')).toBeNull();
    expect(cpfCnpjKind('111.111.111-11')).toBeNull();
    expect(cpfCnpjKind('52998224725')).toBeNull();
    expect(cpfCnpjKind('529982247-25')).toBeNull();
  });

  it('accepts a CNPJ with its punctuation and right check digits, numeric or alphanumeric (2026 format)', () => {
    expect(cpfCnpjKind('11.222.333/0001-81')).toBe('cnpj');
    expect(cpfCnpjKind('12.ABC.345/01DE-35')).toBe('cnpj');
    expect(cpfCnpjKind('12.abc.345/01de-35')).toBe('cnpj');
    expect(isValidCnpj('11222333000181')).toBe(true);
  });

  it('refuses a CNPJ with a wrong check digit, repeated digits or no punctuation', () => {
    expect(cpfCnpjKind('11.222.333/0001-80')).toBeNull();
    expect(cpfCnpjKind('00.000.000/0000-00')).toBeNull();
    expect(cpfCnpjKind('11222333000181')).toBeNull();
    expect(cpfCnpjKind('12.ABC.345/01DE-36')).toBeNull();
  });
});

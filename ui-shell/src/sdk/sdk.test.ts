import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import pt from '../i18n/locales/pt.json';
import { ApiError, ERR_NETWORK, apiErrorFrom, errorMessage } from './errors.ts';
import { datePattern, formatDate, formatDateTime } from './format.ts';
import { isCnpj, isCpf, isEmail, isStrongPassword, maskCpfCnpj } from './validation.ts';

beforeAll(async () => {
  await i18next.init({ lng: 'pt', resources: { pt: { translation: pt } }, interpolation: { escapeValue: false } });
});

describe('errorMessage (core.md §8)', () => {
  it('maps a known code to the catalogue text', () => {
    expect(errorMessage(apiErrorFrom(409, { error: 'ERR_OTHER_OPEN_TICKET', message: 'x' }))).toBe('Já existe um ticket aberto/pendente para esse contato');
  });
  it('shows the server text for an unknown code', () => {
    expect(errorMessage(apiErrorFrom(400, { error: 'ERR_SOMETHING_NEW', message: 'Texto do servidor' }))).toBe('Texto do servidor');
  });
  it('reads error, msg or message when the answer has no code', () => {
    expect(errorMessage(apiErrorFrom(500, { error: 'Falhou feio' }))).toBe('Falhou feio');
    expect(errorMessage(apiErrorFrom(500, { msg: 'Via msg' }))).toBe('Via msg');
  });
  it("falls back to 'Ocorreu um erro não identificado.' without code or text", () => {
    expect(errorMessage(apiErrorFrom(500, undefined))).toBe('Ocorreu um erro não identificado.');
    expect(errorMessage(new Error('boom'))).toBe('Ocorreu um erro não identificado.');
  });
  it('fills placeholders from the answer, else prefers the server text', () => {
    expect(errorMessage(apiErrorFrom(400, { error: 'ERR_REQUIRED_FIELD', params: { field: 'nome' } }))).toBe('O campo nome é obrigatório');
    expect(errorMessage(apiErrorFrom(400, { error: 'ERR_VALIDATION', message: 'Verifique os erros: name' }))).toBe('Verifique os erros: name');
  });
  it('words network failures', () => {
    expect(errorMessage(new ApiError(0, ERR_NETWORK, 'x'))).toMatch(/servidor/);
  });
  it('keeps status and code on the error', () => {
    const e = apiErrorFrom(403, { error: 'ERR_NO_PERMISSION', message: 'm' });
    expect([e.status, e.code, e.message]).toEqual([403, 'ERR_NO_PERMISSION', 'm']);
  });
});

describe('validation (core.md §5)', () => {
  it('checks CPF and CNPJ digits', () => {
    expect(isCpf('111.444.777-35')).toBe(true);
    expect(isCpf('111.444.777-36')).toBe(false);
    expect(isCpf('111.111.111-11')).toBe(false);
    expect(isCnpj('11.222.333/0001-81')).toBe(true);
    expect(isCnpj('11.222.333/0001-82')).toBe(false);
  });
  it('masks CPF and CNPJ while typing', () => {
    expect(maskCpfCnpj('11144477735')).toBe('111.444.777-35');
    expect(maskCpfCnpj('11222333000181')).toBe('11.222.333/0001-81');
  });
  it('requires 7+ chars with letters, numbers and a special character', () => {
    expect(isStrongPassword('abc123!')).toBe(true);
    expect(isStrongPassword('abc1234')).toBe(false);
    expect(isStrongPassword('ab1!')).toBe(false);
  });
  it('validates emails', () => {
    expect(isEmail(' ana@acme.com ')).toBe(true);
    expect(isEmail('ana@acme')).toBe(false);
  });
});

describe('dates (core.md §9)', () => {
  const d = new Date(2025, 0, 31, 9, 5);
  it('is day first, month first in English', () => {
    expect(formatDate(d, 'pt-br')).toBe('31/01/2025');
    expect(formatDate(d, 'en-us')).toBe('01/31/2025');
    expect(datePattern('en-gb')).toBe('MM/DD/YYYY');
    expect(formatDateTime(d, 'pt')).toBe('31/01/2025 09:05');
  });
});

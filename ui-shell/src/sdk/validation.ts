/**
 * Generic validators (core.md §5), each answering true when the value is
 * acceptable: the server's own rules (core/src/validation), so a form never
 * accepts what the server refuses or the reverse.
 */
import { cpfCnpjKind } from '@atende/core/validation';

export { isEmail, isCpfOrCnpj, maskCpfCnpj, isStrongPassword, cpfCnpjKind } from '@atende/core/validation';

/** A CPF with valid check digits, punctuated or not. */
export const isCpf = (value: string): boolean => cpfCnpjKind(value, { punctuation: 'optional' }) === 'cpf';

/** A CNPJ with valid check digits, punctuated or not (letters allowed, as issued from July 2026). */
export const isCnpj = (value: string): boolean => cpfCnpjKind(value, { punctuation: 'optional' }) === 'cnpj';

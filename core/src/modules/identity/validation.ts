/** Validation rules of spec core.md §5 shared by signup, users and tenants: the one implementation in core/src/validation, also used by the screens. */
import { isCpfOrCnpj, isEmail, normalizeEmail } from '../../validation/index.ts';

/** Brazilian CPF or CNPJ (the alphanumeric CNPJ too), with or without punctuation, check digits verified. */
export const isValidCpfCnpj = isCpfOrCnpj;

export const isValidEmail = (email: string) => email === email.trim() && isEmail(email);

export { normalizeEmail };

/**
 * `@atende/core/validation` — the validation rules of core.md §5 that the
 * server and the browser must agree on (signup, users, tenants, contacts).
 * One implementation for both: the server enforces them, the screens use the
 * same functions to tell the user before sending. Plain functions with no
 * dependencies, so the login and signup pages stay light (docs/performance.md U1).
 */

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;

/** A pragmatic address check (one @, a dotted domain, no spaces, at most 254 characters); the mail server is the final judge. Surrounding spaces are ignored, as the login trims them (core.md §5). */
export function isEmail(value: string): boolean {
  const v = value.trim();
  return v.length <= 254 && EMAIL_RE.test(v);
}

/** The stored form of an e-mail address. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Minimum password length (core.md §9). */
export const PASSWORD_MIN_LENGTH = 7;

/**
 * At least 7 characters with letters, numbers and a special character (core.md §5).
 * A letter is any Unicode letter (`ç`, `ã` count as letters, not as special
 * characters); a special character is anything that is neither a letter, a
 * digit nor a space.
 */
export function isStrongPassword(value: string): boolean {
  return [...value].length >= PASSWORD_MIN_LENGTH && /\p{L}/u.test(value) && /\p{Nd}/u.test(value) && /[^\p{L}\p{Nd}\s]/u.test(value);
}

/** A CPF's 11 digits with valid check digits. */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(digits[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/**
 * A CNPJ's 14 characters with valid check digits. CNPJs issued from July 2026
 * may carry letters in their first twelve positions (Receita Federal IN
 * 2.229/2024); the check digits treat each character as its ASCII code minus
 * 48, which leaves the numeric form unchanged.
 */
export function isValidCnpj(chars: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(chars) || /^(\d)\1{13}$/.test(chars)) return false;
  const value = (c: string) => c.charCodeAt(0) - 48;
  const check = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum = 0;
    for (let i = 0; i < len; i++) sum += value(chars[i]!) * weights[i]!;
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check(12) === Number(chars[12]) && check(13) === Number(chars[13]);
}

const CPF_PUNCTUATED = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const CNPJ_PUNCTUATED = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;

/**
 * Which document a CPF/CNPJ is, or null when its form or check digits are wrong.
 * `punctuation: 'required'` (contacts, core.md §5: "entered with its punctuation")
 * accepts only `000.000.000-00` and `00.000.000/0000-00`; `'optional'`
 * (signup, tenants) also accepts the bare characters. Letters are upper-cased.
 */
export function cpfCnpjKind(input: string, opts: { punctuation: 'required' | 'optional' } = { punctuation: 'required' }): 'cpf' | 'cnpj' | null {
  const v = input.trim().toUpperCase();
  if (opts.punctuation === 'required') {
    if (CPF_PUNCTUATED.test(v)) return isValidCpf(v.replace(/\D/g, '')) ? 'cpf' : null;
    if (CNPJ_PUNCTUATED.test(v)) return isValidCnpj(v.replace(/[./-]/g, '')) ? 'cnpj' : null;
    return null;
  }
  if (!/^[0-9A-Z.\-/\s]+$/.test(v)) return null;
  const bare = v.replace(/[.\-/\s]/g, '');
  if (/^\d{11}$/.test(bare)) return isValidCpf(bare) ? 'cpf' : null;
  if (bare.length === 14) return isValidCnpj(bare) ? 'cnpj' : null;
  return null;
}

/** A valid CPF or CNPJ, punctuated or not (signup and tenants). */
export const isCpfOrCnpj = (input: string): boolean => cpfCnpjKind(input, { punctuation: 'optional' }) !== null;

/**
 * Punctuates what is typed as CPF (`000.000.000-00`) or, past 11 characters
 * or once a letter appears, as CNPJ (`00.000.000/0000-00`, letters kept).
 */
export function maskCpfCnpj(value: string): string {
  const chars = value.toUpperCase().replace(/[^0-9A-Z]/g, '').slice(0, 14);
  if (chars.length <= 11 && /^\d*$/.test(chars)) {
    return chars.replace(/^(\d{3})(\d)/, '$1.$2').replace(/^(\d{3})\.(\d{3})(\d)/, '$1.$2.$3').replace(/\.(\d{3})(\d{1,2})$/, '.$1-$2');
  }
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    if (i === 2 || i === 5) out += '.';
    else if (i === 8) out += '/';
    else if (i === 12) out += '-';
    out += chars[i];
  }
  return out;
}

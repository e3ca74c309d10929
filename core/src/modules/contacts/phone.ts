import { parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/max';

/**
 * Contact numbers are stored as the digits of the full international number
 * (country code first, no `+`): the form WhatsApp identities use, and the only
 * form that compares equal across channels. They are stored exactly as given:
 * never rewritten on the way in, because an official-API account must match its
 * number digit for digit (spec §5). Rewrites happen only through the explicit
 * ninth-digit fix.
 */

export type NumberProblem = 'missing' | 'not_a_number' | 'invalid_country_code' | 'too_short' | 'too_long' | 'invalid' | 'missing_ninth_digit';

export type NormalizedNumber = { ok: true; number: string } | { ok: false; problem: NumberProblem };

/** Characters people type around a phone number; anything else (letters, `@`) means it is not one. */
const TYPED_NUMBER = /^[\d\s()+.\-/]+$/;

/**
 * Turns a typed or imported number into stored digits, or says why it cannot:
 * the country code must be there (a number without it parses as another
 * country or as none) and the length must be possible for that country.
 * Brazilian mobiles still missing the ninth digit are accepted: WhatsApp keeps
 * many of them in that form. With `nationalIn: 'BR'` (imports of a Brazilian
 * tenant) a number without `+` that reads as a Brazilian national number gets +55.
 */
export function normalizeContactNumber(input: string | null | undefined, opts: { nationalIn?: 'BR' } = {}): NormalizedNumber {
  const raw = (input ?? '').trim();
  if (!raw) return { ok: false, problem: 'missing' };
  if (!TYPED_NUMBER.test(raw)) return { ok: false, problem: 'not_a_number' };
  const digits = raw.replace(/\D/g, '');
  if (!digits) return { ok: false, problem: 'not_a_number' };
  if (opts.nationalIn === 'BR' && !raw.startsWith('+')) {
    const national = brazilianNational(digits);
    if (national) return { ok: true, number: `55${national}` };
  }
  if (digits.startsWith('0')) return { ok: false, problem: 'invalid_country_code' };
  const length = validatePhoneNumberLength(`+${digits}`);
  if (length === 'INVALID_COUNTRY') return { ok: false, problem: 'invalid_country_code' };
  if (length === 'TOO_SHORT') return { ok: false, problem: 'too_short' };
  if (length === 'TOO_LONG') return { ok: false, problem: 'too_long' };
  if (length) return { ok: false, problem: 'invalid' };
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  // A number libphonenumber cannot place in any region is, in practice, one typed without its country code.
  if (!parsed || (!parsed.country && !parsed.isValid())) return { ok: false, problem: 'invalid' };
  return { ok: true, number: digits };
}

/**
 * A number written the Brazilian national way, (11) 98765-4321 or with the
 * trunk zero (011) 98765-4321: DDD and subscriber, 10 or 11 digits, valid for
 * Brazil (a mobile still without its ninth digit too). Returns those digits, or
 * undefined when it is not one (it may then be an international number typed
 * without `+`).
 */
function brazilianNational(digits: string): string | undefined {
  const national = digits.replace(/^0/, '');
  if (national.length !== 10 && national.length !== 11) return undefined;
  if (/^[1-9][1-9][6-9]\d{7}$/.test(national)) return national;
  const parsed = parsePhoneNumberFromString(national, 'BR');
  return parsed?.isValid() ? parsed.nationalNumber : undefined;
}

/** A Brazilian mobile written with DDD + 8 digits (the pre-2016 form): 55, DDD, subscriber starting 6–9. */
const BR_MOBILE_WITHOUT_NINTH = /^55([1-9][1-9])([6-9]\d{7})$/;

/**
 * The same number with the ninth digit added after the DDD, when the stored
 * digits are a Brazilian mobile that lacks it and the fixed form is a valid
 * mobile number; otherwise null.
 */
export function brazilNinthDigitFix(number: string): string | null {
  const m = BR_MOBILE_WITHOUT_NINTH.exec(number);
  if (!m) return null;
  const fixed = `55${m[1]}9${m[2]}`;
  const parsed = parsePhoneNumberFromString(`+${fixed}`);
  return parsed?.isValid() && parsed.getType() === 'MOBILE' ? fixed : null;
}

/**
 * Strict check for the "validate contacts" report: what is wrong with a stored
 * number, or null when it is a valid number for its country.
 */
export function numberProblem(number: string | null | undefined): NumberProblem | null {
  const n = normalizeContactNumber(number);
  if (!n.ok) return n.problem;
  if (brazilNinthDigitFix(n.number)) return 'missing_ninth_digit';
  const parsed = parsePhoneNumberFromString(`+${n.number}`);
  return parsed?.isValid() ? null : 'invalid';
}

/**
 * The key two numbers share when they reach the same person: digits only, with
 * the Brazilian ninth digit restored (55 11 8765-4321 and 55 11 98765-4321 are
 * one phone).
 */
export function duplicateKey(number: string): string {
  const digits = number.replace(/\D/g, '');
  return brazilNinthDigitFix(digits) ?? digits;
}

import { describe, expect, it } from 'vitest';
import { brazilNinthDigitFix, duplicateKey, normalizeContactNumber, numberProblem } from './phone.ts';

describe('normalizeContactNumber', () => {
  it('keeps only the digits of a number typed with its country code', () => {
    expect(normalizeContactNumber('+55 (11) 98765-4321')).toEqual({ ok: true, number: '5511987654321' });
    expect(normalizeContactNumber('+1 415 555 2671')).toEqual({ ok: true, number: '14155552671' });
    expect(normalizeContactNumber('351.912.345.678')).toEqual({ ok: true, number: '351912345678' });
  });

  it('stores a Brazilian mobile without the ninth digit exactly as given (no rewriting on the way in)', () => {
    expect(normalizeContactNumber('551187654321')).toEqual({ ok: true, number: '551187654321' });
  });

  it('refuses a number without country code, letters, a leading zero and impossible lengths', () => {
    expect(normalizeContactNumber('11987654321')).toEqual({ ok: false, problem: 'invalid' });
    expect(normalizeContactNumber('fale comigo')).toEqual({ ok: false, problem: 'not_a_number' });
    expect(normalizeContactNumber('011987654321')).toEqual({ ok: false, problem: 'invalid_country_code' });
    expect(normalizeContactNumber('5511')).toEqual({ ok: false, problem: 'too_short' });
    expect(normalizeContactNumber('55119876543210000')).toEqual({ ok: false, problem: 'too_long' });
    expect(normalizeContactNumber('  ')).toEqual({ ok: false, problem: 'missing' });
  });

  it('in the import of a Brazilian company, reads national numbers with +55 and leaves international ones as they are', () => {
    const br = { nationalIn: 'BR' as const };
    expect(normalizeContactNumber('(11) 98765-4321', br)).toEqual({ ok: true, number: '5511987654321' });
    expect(normalizeContactNumber('11987654321', br)).toEqual({ ok: true, number: '5511987654321' });
    expect(normalizeContactNumber('011 98765-4321', br)).toEqual({ ok: true, number: '5511987654321' });
    expect(normalizeContactNumber('(21) 3254-1000', br)).toEqual({ ok: true, number: '552132541000' });
    // A mobile still without its ninth digit, as WhatsApp keeps many.
    expect(normalizeContactNumber('11 8765-4321', br)).toEqual({ ok: true, number: '551187654321' });
    expect(normalizeContactNumber('5511987654321', br)).toEqual({ ok: true, number: '5511987654321' });
    expect(normalizeContactNumber('14155552671', br)).toEqual({ ok: true, number: '14155552671' });
    expect(normalizeContactNumber('+11 98765-4321', br).ok).toBe(false);
  });
});

describe('Brazilian ninth digit', () => {
  it('adds the 9 after the DDD of a mobile stored with 8 digits', () => {
    expect(brazilNinthDigitFix('551187654321')).toBe('5511987654321');
    expect(brazilNinthDigitFix('558196543210')).toBe('5581996543210');
  });

  it('leaves landlines, complete mobiles and other countries alone', () => {
    expect(brazilNinthDigitFix('551132654321')).toBeNull();
    expect(brazilNinthDigitFix('5511987654321')).toBeNull();
    expect(brazilNinthDigitFix('351912345678')).toBeNull();
  });

  it('treats both forms as one number when looking for duplicates', () => {
    expect(duplicateKey('551187654321')).toBe(duplicateKey('5511987654321'));
    expect(duplicateKey('+55 11 98765-4321')).toBe('5511987654321');
  });
});

describe('numberProblem (validation report)', () => {
  it('names what is wrong with a stored number', () => {
    expect(numberProblem('5511987654321')).toBeNull();
    expect(numberProblem('551187654321')).toBe('missing_ninth_digit');
    expect(numberProblem('5511387654321')).toBe('invalid');
    expect(numberProblem('11987654321')).toBe('invalid');
    expect(numberProblem('123')).toBe('too_short');
  });
});

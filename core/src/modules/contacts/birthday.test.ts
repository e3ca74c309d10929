import { describe, expect, it } from 'vitest';
import { birthdayOrder, formatBirthday, parseBirthday } from './birthday.ts';

const today = new Date('2026-06-15T12:00:00Z');

describe('birthday', () => {
  it('reads day/month/year, or month/day/year for English locales', () => {
    expect(parseBirthday('31/12/1990', 'dmy', today)).toBe('1990-12-31');
    expect(parseBirthday('12/31/1990', 'mdy', today)).toBe('1990-12-31');
    expect(parseBirthday('1/2/1990', 'dmy', today)).toBe('1990-02-01');
    expect(parseBirthday('1990-12-31', 'dmy', today)).toBe('1990-12-31');
  });

  it('refuses dates that do not exist, are in the future or not in the format', () => {
    expect(parseBirthday('31/02/1990', 'dmy', today)).toBeNull();
    expect(parseBirthday('29/02/2023', 'dmy', today)).toBeNull();
    expect(parseBirthday('29/02/2024', 'dmy', today)).toBe('2024-02-29');
    expect(parseBirthday('12/31/1990', 'dmy', today)).toBeNull();
    expect(parseBirthday('16/06/2026', 'dmy', today)).toBeNull();
    expect(parseBirthday('15/06/2026', 'dmy', today)).toBe('2026-06-15');
    expect(parseBirthday('01/01/1899', 'dmy', today)).toBeNull();
    expect(parseBirthday('1990.12.31', 'dmy', today)).toBeNull();
    expect(parseBirthday('31/12/90', 'dmy', today)).toBeNull();
  });

  it('picks the order from Accept-Language', () => {
    expect(birthdayOrder(undefined)).toBe('dmy');
    expect(birthdayOrder('pt-BR,pt;q=0.9')).toBe('dmy');
    expect(birthdayOrder('es')).toBe('dmy');
    expect(birthdayOrder('en-US,en;q=0.9')).toBe('mdy');
    expect(birthdayOrder('en-GB')).toBe('mdy');
  });

  it('formats an ISO date back for the locale', () => {
    expect(formatBirthday('1990-12-31', 'dmy')).toBe('31/12/1990');
    expect(formatBirthday('1990-12-31', 'mdy')).toBe('12/31/1990');
  });
});

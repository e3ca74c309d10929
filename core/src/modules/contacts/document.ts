/**
 * CPF and CNPJ (Brazilian taxpayer ids), entered with their punctuation
 * (spec §5): 000.000.000-00 and 00.000.000/0000-00. CNPJs issued from July
 * 2026 may carry letters in their first twelve positions (Receita Federal
 * IN 2.229/2024); the check digits treat each character as its ASCII code
 * minus 48, which leaves the numeric form unchanged.
 */

const CPF_FORMAT = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const CNPJ_FORMAT = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;

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

export function isValidCnpj(chars: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(chars) || /^(\d)\1{13}$/.test(chars)) return false;
  const value = (c: string) => c.charCodeAt(0) - 48;
  const check = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum = 0;
    for (let i = 0; i < len; i++) sum += value(chars[i]) * weights[i];
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check(12) === Number(chars[12]) && check(13) === Number(chars[13]);
}

/** Which document a punctuated CPF/CNPJ is, or null when its format or check digits are wrong. */
export function cpfCnpjKind(input: string): 'cpf' | 'cnpj' | null {
  const v = input.trim().toUpperCase();
  if (CPF_FORMAT.test(v)) return isValidCpf(v.replace(/\D/g, '')) ? 'cpf' : null;
  if (CNPJ_FORMAT.test(v)) return isValidCnpj(v.replace(/[./-]/g, '')) ? 'cnpj' : null;
  return null;
}

/**
 * CPF and CNPJ (Brazilian taxpayer ids) of contacts, entered with their
 * punctuation (spec §5): the shared rules of core/src/validation, which the
 * screens use too.
 */
export { isValidCpf, isValidCnpj } from '../../validation/index.ts';
import { cpfCnpjKind as kind } from '../../validation/index.ts';

/** Which document a punctuated CPF/CNPJ is, or null when its format or check digits are wrong. */
export const cpfCnpjKind = (input: string) => kind(input, { punctuation: 'required' });

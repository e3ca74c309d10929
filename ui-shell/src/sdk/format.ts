/** Date pattern by UI language: day first, month first in English (core.md §5, §9). */
export function datePattern(language: string): 'DD/MM/YYYY' | 'MM/DD/YYYY' {
  return language.toLowerCase().startsWith('en') ? 'MM/DD/YYYY' : 'DD/MM/YYYY';
}

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: Date | string | number | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** `dd/MM/yyyy` (or `MM/dd/yyyy` in English); empty for missing or invalid values. */
export function formatDate(value: Date | string | number | null | undefined, language = 'pt'): string {
  const d = toDate(value);
  if (!d) return '';
  const [a, b] = datePattern(language) === 'MM/DD/YYYY' ? [d.getMonth() + 1, d.getDate()] : [d.getDate(), d.getMonth() + 1];
  return `${pad(a)}/${pad(b)}/${d.getFullYear()}`;
}

/** `dd/MM/yyyy HH:mm` (24 h; month first in English). */
export function formatDateTime(value: Date | string | number | null | undefined, language = 'pt'): string {
  const d = toDate(value);
  return d ? `${formatDate(d, language)} ${pad(d.getHours())}:${pad(d.getMinutes())}` : '';
}

/** Money in pt-BR reals with 2 to 3 fraction digits (core.md §9). */
export function formatCurrency(value: number): string {
  return new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 2, maximumFractionDigits: 3 }).format(value);
}

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

/** The Intl tag of a UI language (`pt` is Brazilian Portuguese, `en-us` → `en-US`). */
export function localeTag(language: string): string {
  const [lang, region] = language.toLowerCase().split('-');
  if (lang === 'pt' && (!region || region === 'br')) return 'pt-BR';
  return region ? `${lang}-${region.length === 2 ? region.toUpperCase() : region}` : lang!;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number in the user's language: `4,5` and `1.234` in Portuguese, `4.5` and
 * `1,234` in English. `digits` fixes the decimals (default: as many as needed, up to 2).
 */
export function formatNumber(value: number, language = 'pt', digits?: number): string {
  const key = `${language}|${digits ?? ''}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(localeTag(language), digits === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(key, f);
  }
  return f.format(value);
}

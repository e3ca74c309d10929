/**
 * Birthdays travel as the user types them (dd/MM/yyyy, or MM/dd/yyyy in English
 * locales, spec §5 and §9) and are answered as ISO dates (yyyy-MM-dd), which
 * clients format for their locale. ISO input is accepted too, so a client can
 * send back what it received.
 */

export type DateOrder = 'dmy' | 'mdy';

/** English locales write month first; every other locale of the product writes day first. */
export function birthdayOrder(acceptLanguage: string | undefined): DateOrder {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'mdy' : 'dmy';
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** ISO date for a typed birthday, or null when it is not a real past date (from 1900). */
export function parseBirthday(input: string, order: DateOrder, today: Date = new Date()): string | null {
  const v = input.trim();
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const typed = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (typed) {
    const [a, b] = [Number(typed[1]), Number(typed[2])];
    [d, m] = order === 'dmy' ? [a, b] : [b, a];
    y = Number(typed[3]);
  } else return null;
  if (y < 1900 || m < 1 || m > 12 || d < 1) return null;
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) return null;
  const result = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
  const todayIso = `${pad(today.getUTCFullYear(), 4)}-${pad(today.getUTCMonth() + 1)}-${pad(today.getUTCDate())}`;
  return result > todayIso ? null : result;
}

/** The typed form of an ISO date for the user's locale (export files). */
export function formatBirthday(iso: string, order: DateOrder): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return order === 'dmy' ? `${d}/${m}/${y}` : `${m}/${d}/${y}`;
}

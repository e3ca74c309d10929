/**
 * Phone numbers as people write them: `+55 (11) 98888-7777` for Brazil, the
 * international form of their country for others (`+1 415-555-2671`).
 * Stored numbers are the digits of the full international number (see the
 * kernel's contacts/phone.ts). Brazil is formatted here directly; other
 * countries need libphonenumber's metadata, fetched on first use (not with the
 * first screen, docs/performance.md U1), after which `usePhoneFormat` re-renders.
 */
import { useEffect, useReducer } from 'react';

type Lib = typeof import('libphonenumber-js/min');
let lib: Lib | undefined;
let loading: Promise<void> | undefined;
const waiting = new Set<() => void>();

function loadLib(): Promise<void> {
  loading ??= import('libphonenumber-js/min')
    .then((m) => {
      lib = m;
      waiting.forEach((f) => f());
      waiting.clear();
    })
    .catch(() => {
      loading = undefined;
      scheduled = false;
    });
  return loading;
}

let scheduled = false;
/** Fetches the formats once the page is idle: a screen showing a foreign number never waits for them (U1). */
function later(): void {
  if (scheduled || lib) return;
  scheduled = true;
  const go = () => void loadLib();
  setTimeout(() => (typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(go, { timeout: 3000 }) : go()), 2000);
}

// DDD (area code, no zero) + a mobile (9 and 8 digits) or a landline (8 digits starting 2–5).
const BRAZIL = /^55([1-9][1-9])(9\d{4}|[2-5]\d{3})(\d{4})$/;

/**
 * A stored number (digits, with or without `+`) as it reads: Brazilian
 * numbers as `+55 (11) 98888-7777`. Anything that is not a phone number (a
 * group or provider id) comes back unchanged.
 */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const raw = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(raw)) return raw;
  const digits = raw.replace(/\D/g, '');
  // E.164 allows at most 15 digits; fewer than 8 is no phone number with its country code.
  if (digits.length < 8 || digits.length > 15) return raw;
  const br = BRAZIL.exec(digits);
  if (br) return `+55 (${br[1]}) ${br[2]}-${br[3]}`;
  if (!lib) {
    later();
    return `+${digits}`;
  }
  const parsed = lib.parsePhoneNumberFromString(`+${digits}`);
  return parsed?.isPossible() ? parsed.formatInternational() : `+${digits}`;
}

/** `formatPhone` for a component: it re-renders once the other countries' formats have arrived. */
export function usePhoneFormat(): typeof formatPhone {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (lib) return;
    waiting.add(rerender);
    return () => {
      waiting.delete(rerender);
    };
  }, []);
  return formatPhone;
}

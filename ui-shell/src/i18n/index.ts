import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { localeTag } from '@atende/ui-shell/sdk';
// Portuguese is the default language: bundled so the first paint needs no extra request.
import pt from './locales/pt.json';

/** The spec's locales (core.md §9); labels are each language's own name. */
export const LANGUAGES = [
  { code: 'pt', label: 'Português' },
  { code: 'pt-br', label: 'Português (Brasil)' },
  { code: 'en', label: 'English' },
  { code: 'en-gb', label: 'English (UK)' },
  { code: 'en-us', label: 'English (US)' },
  { code: 'es', label: 'Español' },
  { code: 'es-419', label: 'Español (Latinoamérica)' },
  { code: 'de', label: 'Deutsch' },
  { code: 'fr', label: 'Français' },
  { code: 'it', label: 'Italiano' },
  { code: 'pl', label: 'Polski' },
  { code: 'ru', label: 'Русский' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'pt';
export const FALLBACK_LANGUAGE: LanguageCode = 'en';
const LANGUAGE_KEY = 'language';

const catalogues = import.meta.glob<{ default: Record<string, unknown> }>(['./locales/*.json', '!./locales/pt.json']);

function isLanguage(code: string | null): code is LanguageCode {
  return LANGUAGES.some((l) => l.code === code);
}

/** The stored choice, else Portuguese (the spec's default, not the browser's). */
export function storedLanguage(): LanguageCode {
  let code: string | null = null;
  try {
    code = localStorage.getItem(LANGUAGE_KEY)?.toLowerCase() ?? null;
  } catch {
    // storage unavailable
  }
  return isLanguage(code) ? code : DEFAULT_LANGUAGE;
}

/** Loads a catalogue (and its base language) unless already present. */
async function ensureCatalogue(code: string): Promise<void> {
  const wanted = [code, code.split('-')[0] ?? code];
  await Promise.all(
    wanted.map(async (c) => {
      if (i18next.hasResourceBundle(c, 'translation')) return;
      const load = catalogues[`./locales/${c}.json`];
      if (!load) return;
      const mod = await load();
      i18next.addResourceBundle(c, 'translation', mod.default, true, true);
    }),
  );
}

let adminStrings: Promise<void> | undefined;

/**
 * The admin sections of the bundled Portuguese catalogue (`admin`, `channels`),
 * built apart from the rest (vite.config.ts `catalogueSections`): the admin
 * routes load them with their screen. A screen using those keys must be one of
 * those routes.
 */
export function ensureAdminStrings(): Promise<void> {
  adminStrings ??= import('./locales/pt.json?admin')
    .then((m) => {
      i18next.addResourceBundle('pt', 'translation', m.default, true, false);
    })
    .catch((e: unknown) => {
      adminStrings = undefined;
      throw e;
    });
  return adminStrings;
}

/** Initialises the shared i18next instance (remotes use it through react-i18next). */
export async function initI18n(): Promise<void> {
  const lng = storedLanguage();
  await i18next.use(initReactI18next).init({
    resources: { pt: { translation: pt } },
    lng,
    fallbackLng: FALLBACK_LANGUAGE,
    // Plugin namespaces fall back to the shell catalogue, so remotes can use `common.*`, `validation.*`, …
    fallbackNS: 'translation',
    supportedLngs: LANGUAGES.map((l) => l.code),
    lowerCaseLng: true,
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await ensureCatalogue(lng);
  // The page's language as screen readers and spell checkers expect it: pt-BR, en-US…
  document.documentElement.lang = localeTag(lng);
  // The English fallback only matters for plugin strings missing in a language:
  // fetch it once the first screen is up instead of competing with it.
  setTimeout(() => void ensureCatalogue(FALLBACK_LANGUAGE), 3000);
}

/** Switches the UI language and remembers it in the browser. */
export async function changeLanguage(code: LanguageCode): Promise<void> {
  await ensureCatalogue(code);
  await i18next.changeLanguage(code);
  document.documentElement.lang = localeTag(code);
  try {
    localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('./locales/', import.meta.url));
const SPEC_LOCALES = ['pt', 'pt-br', 'en', 'en-gb', 'en-us', 'es', 'es-419', 'de', 'fr', 'it', 'pl', 'ru'];

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out[prefix + k] = v;
    else Object.assign(out, flatten(v, `${prefix}${k}.`));
  }
  return out;
}

const load = (lng: string) => flatten(JSON.parse(readFileSync(`${dir}${lng}.json`, 'utf8')) as Tree);
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
const pt = load('pt');

describe('i18n catalogues', () => {
  it('cover exactly the spec locales', () => {
    expect(files).toEqual([...SPEC_LOCALES].sort());
  });

  // A base language has every key; a regional variant (pt-br, en-gb, en-us, es-419) holds only
  // the texts whose wording differs from its base, which i18next reads for the rest.
  const REGIONAL = SPEC_LOCALES.filter((l) => l.includes('-'));
  for (const lng of SPEC_LOCALES) {
    it(`${lng} has ${REGIONAL.includes(lng) ? 'only keys of pt, differing from its base' : 'exactly the keys of pt'}, none empty, same placeholders`, () => {
      const cat = load(lng);
      if (REGIONAL.includes(lng)) {
        const base = load(lng.split('-')[0]!);
        expect(Object.keys(cat).filter((k) => !(k in pt))).toEqual([]);
        expect(Object.keys(cat).filter((k) => cat[k] === base[k]), `${lng} repeats its base`).toEqual([]);
      } else {
        expect(Object.keys(cat).sort()).toEqual(Object.keys(pt).sort());
      }
      for (const [key, text] of Object.entries(cat)) {
        expect(text.trim(), `${lng}:${key} is empty`).not.toBe('');
        expect(placeholders(text), `${lng}:${key} placeholders`).toEqual(placeholders(pt[key]!));
      }
    });
  }

  it('pt maps every error code of the spec and warns about newer server codes', () => {
    // core.md §8: these codes are part of the contract and must read well in every language.
    const SPEC_CODES = [
      'ERR_NO_DEF_WAPP_FOUND', 'ERR_WAPP_NOT_INITIALIZED', 'ERR_WAPP_INITIALIZED', 'ERR_WAPP_CHECK_CONTACT', 'ERR_WAPP_INVALID_CONTACT',
      'ERR_WAPP_DOWNLOAD_MEDIA', 'ERR_SENDING_WAPP_MSG', 'ERR_DELETE_WAPP_MSG', 'ERR_FETCH_WAPP_MSG', 'ERR_INVALID_CREDENTIALS',
      'ERR_LIMIT_MAX', 'ERR_OTHER_OPEN_TICKET', 'ERR_SESSION_EXPIRED', 'ERR_USER_CREATION_DISABLED', 'ERR_NO_PERMISSION',
      'ERR_DUPLICATED_CONTACT', 'ERR_NO_SETTING_FOUND', 'ERR_NO_CONTACT_FOUND', 'ERR_NO_TICKET_FOUND', 'ERR_NO_USER_FOUND',
      'ERR_NO_WAPP_FOUND', 'ERR_CREATING_MESSAGE', 'ERR_CREATING_TICKET', 'ERR_TENANT_INACTIVE', 'ERR_ASAAS_OVERDUE',
      'ERR_NO_PERMISSION_API_ADMIN', 'INVALID_LICENSE',
    ];
    expect(SPEC_CODES.filter((c) => !(`errors.${c}` in pt))).toEqual([]);
    // The kernel keeps adding codes; until the UI catalogue has them, the
    // client shows the server's own text (already in pt or en), so a newer
    // code is reported here rather than failing the build of other teams.
    const source = readFileSync(fileURLToPath(new URL('../../../core/src/errors.ts', import.meta.url)), 'utf8');
    const block = source.slice(source.indexOf('export const ERRORS'), source.indexOf('} as const'));
    const codes = [...block.matchAll(/^\s+([A-Z][A-Z0-9_]+): e\(/gm)].map((m) => m[1]!);
    expect(codes.length).toBeGreaterThan(0);
    const missing = codes.filter((c) => !(`errors.${c}` in pt));
    if (missing.length) console.warn(`UI catalogue lacks messages for server codes: ${missing.join(', ')}`);
  });
});

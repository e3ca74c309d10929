/**
 * `@atende/core/contract` — what a plugin's server part and its screens share.
 *
 * Each plugin keeps its own `plugins/<id>/src/contract.ts`: its zod schemas,
 * its error codes (HTTP status and text in every language) and its events.
 * The server plugin passes the contract to `definePlugin({ contract })`, the
 * kernel merges its errors into the one catalogue at mount (a code claimed
 * twice stops boot), and the plugin's remote imports the same file
 * (`@atende/plugin-<id>/contract`) for its forms, its error texts and its
 * typed real-time events. Nothing else of the server reaches the browser, so
 * this module imports only zod and the shared validation rules.
 *
 * Events and error codes are typed install-wide by declaration merging:
 *
 * ```ts
 * export const contract = defineContract({ id: 'demands', errors: {...}, events: {...} });
 * declare module '@atende/core/contract' {
 *   interface AtendeEvents extends EventsOf<typeof contract> {}
 *   interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
 * }
 * ```
 *
 * See docs/plugin-authoring.md.
 */
import { z } from 'zod';
import { cpfCnpjKind, isEmail, isStrongPassword } from '../validation/index.ts';

export { z };

/** The base languages every catalogue text is written in (regional variants — pt-br, en-gb, en-us, es-419 — read their base). */
export const CATALOGUE_LANGUAGES = ['pt', 'en', 'es', 'de', 'fr', 'it', 'pl', 'ru'] as const;
export type CatalogueLanguage = (typeof CATALOGUE_LANGUAGES)[number];

/** A text in every base language; a regional variant may be given where its wording differs. */
export type LocalizedText = Record<CatalogueLanguage, string> & Partial<Record<'pt-br' | 'en-gb' | 'en-us' | 'es-419', string>>;

/** One error a plugin can answer with: its HTTP status and its message per language (`{name}` placeholders are filled from the error's params). */
export interface ErrorDefinition {
  status: number;
  text: LocalizedText;
}

/**
 * Events of the whole install, by name (`<aggregate>.<past-tense>`), with their
 * payload types. The kernel declares its own; each plugin adds its contract's
 * events by declaration merging (see the module comment).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AtendeEvents {}

/** Error codes plugins add to the catalogue, by declaration merging; `AppError` accepts them beside the kernel's. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AtendeErrorCodes {}

/**
 * Typed extension points: a plugin that offers a registry to others declares
 * its point here by declaration merging (`'chatflow.nodes': FlowNodeKind`),
 * contributors add to it with `ctx.extensions.contribute(point, value)`, and
 * the offering plugin reads them with `ctx.extensions.list(point)`. Neither
 * imports the other.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AtendeExtensionPoints {}

export interface ContractInput<E extends Record<string, ErrorDefinition>, V extends Record<string, z.ZodType>> {
  /** The plugin id (kebab-case), same as `plugins/<id>`. */
  id: string;
  /** Error codes this plugin answers with: `ERR_` and upper snake case, unique in the install. */
  errors?: E;
  /** Events this plugin publishes, with the schema of their payload. */
  events?: V;
}

export interface Contract<E extends Record<string, ErrorDefinition> = Record<string, ErrorDefinition>, V extends Record<string, z.ZodType> = Record<string, z.ZodType>> {
  readonly id: string;
  readonly errors: E;
  readonly events: V;
}

const CODE_RE = /^ERR_[A-Z0-9_]+$/;
const EVENT_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Declares a plugin's contract; checks its codes, event names and that every error has a text in every base language. */
export function defineContract<const E extends Record<string, ErrorDefinition> = Record<never, ErrorDefinition>, const V extends Record<string, z.ZodType> = Record<never, z.ZodType>>(
  input: ContractInput<E, V>,
): Contract<E, V> {
  for (const [code, def] of Object.entries(input.errors ?? {})) {
    if (!CODE_RE.test(code)) throw new Error(`contract ${input.id}: error code "${code}" must look like ERR_SOMETHING`);
    if (!Number.isInteger(def.status) || def.status < 400 || def.status > 599) throw new Error(`contract ${input.id}: ${code} needs an HTTP error status`);
    for (const lang of CATALOGUE_LANGUAGES) {
      if (!def.text[lang]?.trim()) throw new Error(`contract ${input.id}: ${code} has no ${lang} text`);
    }
  }
  for (const name of Object.keys(input.events ?? {})) {
    if (!EVENT_RE.test(name)) throw new Error(`contract ${input.id}: event "${name}" must look like aggregate.past_tense`);
  }
  return Object.freeze({ id: input.id, errors: (input.errors ?? {}) as E, events: (input.events ?? {}) as V });
}

/** The events of a contract as an `AtendeEvents` fragment (payload = the schema's output). */
export type EventsOf<C extends Contract<any, any>> = { [K in keyof C['events']]: z.output<C['events'][K]> };

/** The error codes of a contract as an `AtendeErrorCodes` fragment. */
export type ErrorCodesOf<C extends Contract<any, any>> = { [K in keyof C['errors']]: true };

/** The text of a catalogue entry in a language: regional variant, then its base, then Portuguese. */
export function localizedText(text: LocalizedText, language: string): string {
  const lang = language.toLowerCase();
  const base = lang.split('-')[0] as CatalogueLanguage;
  return (text as Record<string, string | undefined>)[lang] ?? text[base] ?? text.pt;
}

// ---------------------------------------------------------------------------
// Schemas every plugin reuses (server routes and screens alike)
// ---------------------------------------------------------------------------

/** A row id: a positive PostgreSQL integer (int32), from a path or query string. */
export const positiveId = z.coerce.number().int().positive().max(2_147_483_647);

/** `/:id` path parameters. */
export const idParam = z.object({ id: positiveId });

/** Page query of the spec's lists (`pageNumber` from 1) with a page size. */
export const pageQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type PageQuery = z.output<typeof pageQuery>;

/** A page of rows as the lists answer: the rows, the total count and whether another page follows. */
export const pageOf = <T extends z.ZodType>(row: T) => z.object({ rows: z.array(row), count: z.number().int(), hasMore: z.boolean() });

/** Builds a `pageOf` answer from a page's rows and the total. */
export function toPage<T>(rows: T[], count: number, q: PageQuery): { rows: T[]; count: number; hasMore: boolean } {
  return { rows, count, hasMore: q.pageNumber * q.limit < count };
}

/** The SQL offset of a page query. */
export const pageOffset = (q: PageQuery): number => (q.pageNumber - 1) * q.limit;

/** An empty answer (`204` or `{ ok: true }` style acknowledgements). */
export const okAnswer = z.object({ ok: z.literal(true) });

/** An ISO instant as the API writes dates. */
export const isoDate = z.string();

/**
 * An optional date in a query string (`?from=2026-11-01`, any format `Date`
 * parses): a `Date`, or the 400 'Data inválida' for text that is not a date.
 * One schema for every plugin's date filters (servers and screens: it lives
 * in the contract module so a plugin's `contract.ts` can use it).
 */
export const queryDate = z
  .string()
  .max(40)
  .optional()
  .transform((v, c) => {
    if (!v) return undefined;
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) {
      c.addIssue({ code: 'custom', message: 'Data inválida' });
      return z.NEVER;
    }
    return d;
  });

/** An e-mail address (trimmed and lower-cased), with the spec's message. */
export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .refine(isEmail, 'E-mail inválido')
  .transform((v) => v.toLowerCase());

/** A password of the spec's rule (core.md §5). */
export const passwordSchema = z.string().max(200).refine(isStrongPassword, 'A senha deve ter pelo menos 7 caracteres, com letras, números e um caractere especial');

/** A CPF or CNPJ (punctuated or not; alphanumeric CNPJ accepted), kept as typed but upper-cased. */
export const cpfCnpjSchema = z
  .string()
  .trim()
  .max(20)
  .refine((v) => cpfCnpjKind(v, { punctuation: 'optional' }) !== null, 'CPF ou CNPJ inválido')
  .transform((v) => v.toUpperCase());

/** A phone number as digits with the country code (8 to 15 digits, no leading zero); typed punctuation is dropped. */
export const phoneSchema = z
  .string()
  .trim()
  .max(40)
  .transform((v) => v.replace(/[\s()+.\-/]/g, ''))
  .refine((v) => /^[1-9]\d{7,14}$/.test(v), 'Número inválido: informe o número com o código do país (ex.: 5511987654321)');

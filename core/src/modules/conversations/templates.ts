import type { TemplateFacts } from '../../sdk/types.ts';

/**
 * Message template variables (spec §3): the kernel's `{{name}}`, `{{greeting}}`,
 * `{{protocol}}`, `{{email}}`, `{{phoneNumber}}`, `{{user}}`, `{{userEmail}}`,
 * `{{firstName}}`, `{{lastName}}`, `{{businessName}}`, and those plugins
 * provide from their own tables (`{{kanban}}`: `ctx.templates.provide`).
 * One function renders them for every sender (replies, farewells, campaigns,
 * birthdays); birthday messages pass `birthday: true` and lose protocol and
 * user (and the providers are told, so `{{kanban}}` stays empty too).
 */
export const TEMPLATE_VARIABLES = ['name', 'greeting', 'protocol', 'email', 'phoneNumber', 'user', 'userEmail', 'firstName', 'lastName', 'businessName'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
/** Variables of the spec whose values a plugin provides (`{{kanban}}`: the contact's lane); empty while none does. */
export const PROVIDED_SPEC_VARIABLES = ['kanban'] as const;

export interface TemplateContext {
  contact?: { name?: string | null; email?: string | null; number?: string | null; firstName?: string | null; lastName?: string | null; businessName?: string | null };
  ticket?: { protocol?: string | null };
  /** Values of the variables plugins provide, by name. */
  provided?: Record<string, string>;
  user?: { name?: string | null; email?: string | null };
  /** The moment the message is rendered, for the greeting. */
  now?: Date;
  timeZone?: string;
  birthday?: boolean;
}

/**
 * The Portuguese names admins write (issue U2 #2: the old quick-message hint taught `{nome}` and
 * `{protocolo}`), matched without accents or case: `{{nome}}` is `{{name}}`.
 */
const ALIASES: Record<string, TemplateVariable> = {
  nome: 'name', primeironome: 'firstName', sobrenome: 'lastName', saudacao: 'greeting', protocolo: 'protocol',
  telefone: 'phoneNumber', numero: 'phoneNumber', celular: 'phoneNumber', atendente: 'user', usuario: 'user',
  emailatendente: 'userEmail', empresa: 'businessName',
};
const fold = (k: string) => k.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
/** The variable a written name stands for (`nome`, `Saudação`, `name`), or the name as written. */
export const canonicalVariable = (key: string): string => ALIASES[fold(key)] ?? key;
/** `{{ name }}`, the one syntax; letters with accents are part of a name (`{{saudação}}`). */
const DOUBLE = /\{\{\s*([\p{L}\w]+)\s*\}\}/gu;
/** `{nome}`: a single-brace known variable, as texts saved under the old hint carry it. Unknown words stay as written. */
const SINGLE = /(?<!\{)\{([\p{L}\w]+)\}(?!\})/gu;
const isKnown = (key: string) => (TEMPLATE_VARIABLES as readonly string[]).includes(canonicalVariable(key));

const BIRTHDAY_OMITS = new Set<TemplateVariable>(['protocol', 'user']);

/** 'Bom dia' before noon, 'Boa tarde' until 18h, 'Boa noite' after, in the tenant's time zone. */
export function greetingAt(now: Date, timeZone = 'America/Sao_Paulo'): string {
  const hour = Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hour12: false, timeZone }).format(now));
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

export function renderTemplate(template: string, ctx: TemplateContext): string {
  const values: Record<TemplateVariable, string> = {
    name: ctx.contact?.name ?? '',
    greeting: greetingAt(ctx.now ?? new Date(), ctx.timeZone),
    protocol: ctx.ticket?.protocol ?? '',
    email: ctx.contact?.email ?? '',
    phoneNumber: ctx.contact?.number ?? '',
    user: ctx.user?.name ?? '',
    userEmail: ctx.user?.email ?? '',
    firstName: ctx.contact?.firstName ?? (ctx.contact?.name ?? '').split(' ')[0] ?? '',
    lastName: ctx.contact?.lastName ?? '',
    businessName: ctx.contact?.businessName ?? '',
  };
  const legacy = template.replace(SINGLE, (whole, key: string) => (isKnown(key) ? `{{${key}}}` : whole));
  return legacy.replace(DOUBLE, (whole, written: string) => {
    const key = canonicalVariable(written);
    if (ctx.provided && Object.hasOwn(ctx.provided, key)) return ctx.provided[key]!;
    if ((PROVIDED_SPEC_VARIABLES as readonly string[]).includes(key)) return '';
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(key)) return whole;
    if (ctx.birthday && BIRTHDAY_OMITS.has(key as TemplateVariable)) return '';
    return values[key as TemplateVariable];
  });
}

/** Answers a variable the kernel cannot (e.g. `kanban`: lane names belong to the kanban plugin). */
export type TemplateProvider = (facts: TemplateFacts) => Promise<string | null | undefined> | string | null | undefined;

/** The variable names a template uses. */
const usedVariables = (template: string): Set<string> => new Set([...template.matchAll(DOUBLE)].map((m) => canonicalVariable(m[1]!)));


export interface RenderTarget {
  /** The ticket being answered: gives contact, protocol and (unless `userId`) the assigned user. */
  ticketId?: number | null;
  /** The contact, when there is no ticket (birthdays, campaigns). */
  contactId?: number | null;
  /** The user who sends (the agent replying or resolving). */
  userId?: number | null;
  birthday?: boolean;
  now?: Date;
}

interface FactsRow {
  timezone: string;
  protocol: string | null;
  contact_id: number | null;
  name: string | null;
  email: string | null;
  number: string | null;
  first_name: string | null;
  last_name: string | null;
  business_name: string | null;
  user_id: number | null;
  user_name: string | null;
  user_email: string | null;
}

type Queryable = { query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> };

/**
 * Renders `template` for a ticket or a contact of one tenant: the single place
 * every sender (agent replies and quick messages, farewells, scheduled
 * messages, birthdays, campaigns) gets its variable values from. Text without
 * `{{` is returned as is without touching the database.
 */
export async function renderFor(db: Queryable, tenantId: number, template: string, target: RenderTarget, providers?: ReadonlyMap<string, { provide: TemplateProvider }>): Promise<string> {
  if (!template.includes('{')) return template;
  const r = await db.query<FactsRow>(
    `SELECT tn.timezone, t.protocol, c.id AS contact_id, c.name, c.email, c.number, c.first_name, c.last_name, c.business_name,
            u.id AS user_id, u.name AS user_name, u.email AS user_email
       FROM tenants tn
       LEFT JOIN tickets t ON t.tenant_id = tn.id AND t.id = $2
       LEFT JOIN contacts c ON c.tenant_id = tn.id AND c.id = COALESCE($3::int, t.contact_id)
       LEFT JOIN users u ON u.tenant_id = tn.id AND u.id = COALESCE($4::int, t.user_id)
      WHERE tn.id = $1`,
    [tenantId, target.ticketId ?? null, target.contactId ?? null, target.userId ?? null],
  );
  const f = r.rows[0];
  if (!f) return template;
  const provided: Record<string, string> = {};
  if (providers?.size) {
    const facts: TemplateFacts = { tenantId, contactId: f.contact_id, ticketId: target.ticketId ?? null, userId: f.user_id, birthday: !!target.birthday };
    await Promise.all(
      [...usedVariables(template)].map(async (name) => {
        const provider = providers.get(name);
        if (provider) provided[name] = (await provider.provide(facts)) ?? '';
      }),
    );
  }
  return renderTemplate(template, {
    contact: { name: f.name, email: f.email, number: f.number, firstName: f.first_name, lastName: f.last_name, businessName: f.business_name },
    ticket: { protocol: f.protocol },
    provided,
    user: { name: f.user_name, email: f.user_email },
    now: target.now,
    timeZone: f.timezone,
    birthday: target.birthday,
  });
}

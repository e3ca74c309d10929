/**
 * Message template variables (spec §3): `{{name}}`, `{{greeting}}`,
 * `{{protocol}}`, `{{email}}`, `{{phoneNumber}}`, `{{kanban}}`, `{{user}}`,
 * `{{userEmail}}`, `{{firstName}}`, `{{lastName}}`, `{{businessName}}`.
 * One function renders them for every sender (replies, farewells, campaigns,
 * birthdays); birthday messages pass `birthday: true` and lose protocol,
 * kanban and user.
 */
export const TEMPLATE_VARIABLES = ['name', 'greeting', 'protocol', 'email', 'phoneNumber', 'kanban', 'user', 'userEmail', 'firstName', 'lastName', 'businessName'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

export interface TemplateContext {
  contact?: { name?: string | null; email?: string | null; number?: string | null; firstName?: string | null; lastName?: string | null; businessName?: string | null };
  ticket?: { protocol?: string | null };
  kanban?: string | null;
  user?: { name?: string | null; email?: string | null };
  /** The moment the message is rendered, for the greeting. */
  now?: Date;
  timeZone?: string;
  birthday?: boolean;
}

const BIRTHDAY_OMITS = new Set<TemplateVariable>(['protocol', 'kanban', 'user']);

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
    kanban: ctx.kanban ?? '',
    user: ctx.user?.name ?? '',
    userEmail: ctx.user?.email ?? '',
    firstName: ctx.contact?.firstName ?? (ctx.contact?.name ?? '').split(' ')[0] ?? '',
    lastName: ctx.contact?.lastName ?? '',
    businessName: ctx.contact?.businessName ?? '',
  };
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => {
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(key)) return whole;
    if (ctx.birthday && BIRTHDAY_OMITS.has(key as TemplateVariable)) return '';
    return values[key as TemplateVariable];
  });
}

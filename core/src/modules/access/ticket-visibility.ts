import type { Profile } from '../../sdk/types.ts';
import type { TenantSettings } from '../tenancy/settings.ts';

/**
 * Ticket visibility (core.md §6), one policy in two forms that must agree:
 * `canSeeTicket` for a single ticket (real-time fan-out, opening a ticket) and
 * `ticketVisibilitySql` for the list query. The tests check them against each
 * other on generated cases.
 *
 * The rules, in order (the first that applies decides):
 *  1. A ticket admin (admin, superadmin, API token, or super while
 *     supervisorAdmin is disabled) with the showAll filter sees every ticket.
 *  2. Everyone sees the tickets assigned to them.
 *  3. mostrarGruposParaTodos: everyone sees group tickets.
 *     mostrarFechadoParaTodos: everyone sees closed tickets.
 *  4. Queue scope: a ticket with a queue is visible when the queue is one of
 *     the viewer's; a ticket without a queue is visible (if the list asks for
 *     them: includeNotQueueDefined, default true) to ticket admins, to viewers
 *     without queues, and to everyone when ViewTicketsWithoutQueue is enabled.
 *     A ticket admin without showAll sees exactly the queue scope.
 *  5. Anyone else also needs, beyond the queue scope: the ticket not closed
 *     (closed tickets of others only via rule 3); not assigned to another user
 *     when NotViewAssignedTickets is enabled; not handled by a bot when
 *     NotViewTicketsChatBot is enabled; and, when DirectTicketsToWallets is
 *     enabled and the contact has wallet owners, being one of them.
 */
export interface TicketViewer {
  userId: number;
  profile: Profile;
  queues: readonly number[];
  apiToken?: boolean;
}

export interface VisibilityTicket {
  status: string;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  /** The ticket is currently handled by a bot or chat flow. */
  chatbot: boolean;
  contactId: number;
  /** User ids owning the contact's wallet (empty: no owner). */
  walletUserIds: readonly number[];
}

export type VisibilitySettings = Pick<
  TenantSettings,
  'NotViewAssignedTickets' | 'NotViewTicketsChatBot' | 'ViewTicketsWithoutQueue' | 'DirectTicketsToWallets' | 'mostrarGruposParaTodos' | 'mostrarFechadoParaTodos' | 'supervisorAdmin'
>;

export interface VisibilityOptions {
  /** The list's showAll filter; honoured only for ticket admins. */
  showAll?: boolean;
  /** The list's includeNotQueueDefined filter (default true). */
  includeNotQueueDefined?: boolean;
}

const on = (v: string) => v === 'enabled';

/** Whether the viewer has admin powers over tickets (showAll, hiding settings do not apply). */
export function isTicketAdmin(viewer: Pick<TicketViewer, 'profile' | 'apiToken'>, s: Pick<VisibilitySettings, 'supervisorAdmin'>): boolean {
  if (viewer.apiToken || viewer.profile === 'admin' || viewer.profile === 'superadmin') return true;
  return viewer.profile === 'super' && !on(s.supervisorAdmin);
}

function inQueueScope(viewer: TicketViewer, t: VisibilityTicket, s: VisibilitySettings, admin: boolean, opts: VisibilityOptions): boolean {
  if (t.queueId === null) return opts.includeNotQueueDefined !== false && (admin || viewer.queues.length === 0 || on(s.ViewTicketsWithoutQueue));
  return viewer.queues.includes(t.queueId);
}

export function canSeeTicket(viewer: TicketViewer, t: VisibilityTicket, s: VisibilitySettings, opts: VisibilityOptions = {}): boolean {
  const admin = isTicketAdmin(viewer, s);
  if (admin && opts.showAll) return true;
  if (t.userId !== null && t.userId === viewer.userId) return true;
  if (t.isGroup && on(s.mostrarGruposParaTodos)) return true;
  if (t.status === 'closed' && on(s.mostrarFechadoParaTodos)) return true;
  if (!inQueueScope(viewer, t, s, admin, opts)) return false;
  if (admin) return true;
  if (t.status === 'closed') return false;
  if (t.userId !== null && on(s.NotViewAssignedTickets)) return false;
  if (t.chatbot && on(s.NotViewTicketsChatBot)) return false;
  if (on(s.DirectTicketsToWallets) && t.walletUserIds.length > 0 && !t.walletUserIds.includes(viewer.userId)) return false;
  return true;
}

export interface SqlFragment {
  /** A boolean SQL expression over the ticket alias, with $n placeholders. */
  where: string;
  params: unknown[];
}

/**
 * The same policy as a WHERE fragment for `tickets` (columns tenant_id,
 * status, queue_id, user_id, is_group, chatbot, contact_id) and
 * `contact_wallets(tenant_id, contact_id, user_id)`. Placeholders start at
 * `firstParam` so the caller can put its own parameters first. The fragment
 * always pins the tenant.
 */
export function ticketVisibilitySql(
  viewer: TicketViewer & { tenantId: number },
  s: VisibilitySettings,
  opts: VisibilityOptions = {},
  sql: { alias?: string; firstParam?: number } = {},
): SqlFragment {
  const a = sql.alias ?? 't';
  if (!/^[a-z_][a-z0-9_]*$/i.test(a)) throw new Error('invalid alias');
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${(sql.firstParam ?? 1) + params.length - 1}`;
  };
  const tenant = `${a}.tenant_id = ${p(viewer.tenantId)}`;
  const admin = isTicketAdmin(viewer, s);
  if (admin && opts.showAll) return { where: `(${tenant})`, params };

  const me = p(viewer.userId);
  const scopeParts: string[] = [];
  if (viewer.queues.length) scopeParts.push(`${a}.queue_id = ANY(${p([...viewer.queues])}::int[])`);
  if (opts.includeNotQueueDefined !== false && (admin || viewer.queues.length === 0 || on(s.ViewTicketsWithoutQueue))) scopeParts.push(`${a}.queue_id IS NULL`);
  const scope = scopeParts.length ? `(${scopeParts.join(' OR ')})` : 'false';

  const any: string[] = [`${a}.user_id = ${me}`];
  if (on(s.mostrarGruposParaTodos)) any.push(`${a}.is_group`);
  if (on(s.mostrarFechadoParaTodos)) any.push(`${a}.status = 'closed'`);
  if (admin) any.push(scope);
  else {
    const all = [`${a}.status <> 'closed'`, scope];
    if (on(s.NotViewAssignedTickets)) all.push(`${a}.user_id IS NULL`);
    if (on(s.NotViewTicketsChatBot)) all.push(`${a}.chatbot IS NOT TRUE`);
    if (on(s.DirectTicketsToWallets)) {
      const w = `FROM contact_wallets w WHERE w.tenant_id = ${a}.tenant_id AND w.contact_id = ${a}.contact_id`;
      all.push(`(NOT EXISTS (SELECT 1 ${w}) OR EXISTS (SELECT 1 ${w} AND w.user_id = ${me}))`);
    }
    any.push(`(${all.join(' AND ')})`);
  }
  return { where: `(${tenant} AND (${any.join(' OR ')}))`, params };
}

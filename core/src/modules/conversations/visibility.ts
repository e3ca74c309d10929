import type { Kernel } from '../../kernel.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { canSeeTicket, ticketVisibilitySql, type VisibilitySettings, type VisibilityTicket } from '../access/ticket-visibility.ts';
import { loadSettings, type TenantSettings } from '../tenancy/settings.ts';
import type { TicketOut, TicketRow } from './serialize.ts';

export type { VisibilitySettings };

/**
 * The conversation module's side of the one visibility policy
 * (access/ticket-visibility.ts): settings cached per node for 2 s, because
 * visibility is checked for every real-time event and every ticket opened.
 */
const cache = new WeakMap<Kernel, Map<number, { at: number; s: TenantSettings }>>();

/** The tenant's settings (all of them: the ticket routes also read ForceAdminPendingAssignment), cached as above. */
export async function visibilitySettings(kernel: Kernel, tenantId: number): Promise<TenantSettings> {
  let m = cache.get(kernel);
  if (!m) cache.set(kernel, (m = new Map()));
  const hit = m.get(tenantId);
  if (hit && Date.now() - hit.at < 2000) return hit.s;
  const s = await loadSettings(kernel.db.pool, tenantId);
  m.set(tenantId, { at: Date.now(), s });
  return s;
}

export function invalidateVisibility(kernel: Kernel, tenantId: number) {
  cache.get(kernel)?.delete(tenantId);
}

export interface Viewer {
  userId: number;
  profile: ResolvedPrincipal['profile'];
  queues: number[];
  apiToken?: boolean;
}

/**
 * Whether a viewer may see one ticket (opening it, real-time events). Ticket
 * admins count as asking for all: whether a screen shows everything is the
 * list's filter, not a reason to withhold a ticket they may open.
 */
export function canSee(v: Viewer, t: VisibilityTicket, s: VisibilitySettings): boolean {
  return canSeeTicket({ userId: v.userId, profile: v.profile, queues: v.queues, apiToken: v.apiToken }, t, s, { showAll: true });
}

export async function viewerCanSee(kernel: Kernel, v: Viewer & { tenantId: number }, t: TicketRow): Promise<boolean> {
  const s = await visibilitySettings(kernel, v.tenantId);
  return canSee(v, { status: t.status, userId: t.user_id, queueId: t.queue_id, isGroup: t.is_group, chatbot: t.chatbot, contactId: t.contact_id, walletUserIds: t.contact_wallets ?? [] }, s);
}

export function factsOf(t: TicketOut): VisibilityTicket {
  return { status: t.status, userId: t.userId, queueId: t.queueId, isGroup: t.isGroup, chatbot: t.chatbot, contactId: t.contactId, walletUserIds: t.contact?.wallets ?? [] };
}

/** The same policy as SQL over alias `t` for the list query; appends its parameters to `params`. */
export function visibilitySql(v: Viewer & { tenantId: number }, s: VisibilitySettings, params: unknown[], opts: { showAll: boolean; includeNotQueueDefined: boolean }): string {
  const frag = ticketVisibilitySql({ tenantId: v.tenantId, userId: v.userId, profile: v.profile, queues: v.queues, apiToken: v.apiToken }, s, opts, { alias: 't', firstParam: params.length + 1 });
  params.push(...frag.params);
  return frag.where;
}

import type { Kernel } from '../../kernel.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import type { TicketRow } from './serialize.ts';
import type { TicketOut } from './serialize.ts';

/** The tenant settings that shape ticket visibility (spec §3, §6). */
export interface VisibilitySettings {
  NotViewAssignedTickets: boolean;
  NotViewTicketsChatBot: boolean;
  DirectTicketsToWallets: boolean;
  ViewTicketsWithoutQueue: boolean;
  mostrarGruposParaTodos: boolean;
  mostrarFechadoParaTodos: boolean;
  supervisorAdmin: boolean;
}

const KEYS: (keyof VisibilitySettings)[] = ['NotViewAssignedTickets', 'NotViewTicketsChatBot', 'DirectTicketsToWallets', 'ViewTicketsWithoutQueue', 'mostrarGruposParaTodos', 'mostrarFechadoParaTodos', 'supervisorAdmin'];
const cache = new WeakMap<Kernel, Map<number, { at: number; s: VisibilitySettings }>>();

/** Settings per tenant, cached for 2 s per node: visibility is checked for every real-time event. */
export async function visibilitySettings(kernel: Kernel, tenantId: number): Promise<VisibilitySettings> {
  let m = cache.get(kernel);
  if (!m) cache.set(kernel, (m = new Map()));
  const hit = m.get(tenantId);
  if (hit && Date.now() - hit.at < 2000) return hit.s;
  const r = await kernel.db.pool.query<{ key: string; value: string }>('SELECT key, value FROM settings WHERE tenant_id = $1 AND key = ANY($2)', [tenantId, KEYS]);
  const s = Object.fromEntries(KEYS.map((k) => [k, false])) as unknown as VisibilitySettings;
  for (const row of r.rows) s[row.key as keyof VisibilitySettings] = row.value === 'enabled' || row.value === 'true';
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
}

/** Admin (and supervisor unless supervisorAdmin demotes them) see every ticket when they ask for all. */
export function seesAll(v: Viewer, s: VisibilitySettings): boolean {
  return v.profile === 'admin' || v.profile === 'superadmin' || (v.profile === 'super' && !s.supervisorAdmin);
}

export interface TicketFacts {
  status: string;
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
  chatbot: boolean;
  wallets: number[];
}

/**
 * The visibility rule for one ticket (spec §6): the owner always sees their
 * ticket; privileged viewers see everything; others see their queues' tickets
 * (and unqueued ones), not others' assigned tickets when that is hidden, not
 * chatbot tickets when hidden, only their wallet's contacts when tickets are
 * directed to wallets, and closed or group tickets when shown to everyone.
 */
export function canSee(v: Viewer, t: TicketFacts, s: VisibilitySettings): boolean {
  if (t.userId === v.userId) return true;
  if (seesAll(v, s)) return true;
  if (t.isGroup && s.mostrarGruposParaTodos) return true;
  if (t.status === 'closed' && s.mostrarFechadoParaTodos) return true;
  if (t.status === 'closed') return false;
  if (t.userId !== null && s.NotViewAssignedTickets) return false;
  if (t.chatbot && s.NotViewTicketsChatBot) return false;
  if (s.DirectTicketsToWallets && t.wallets.length > 0 && !t.wallets.includes(v.userId)) return false;
  // Tickets without a queue are visible by default (includeNotQueueDefined defaults to true, spec §3).
  if (t.queueId === null) return true;
  return v.queues.length === 0 || v.queues.includes(t.queueId);
}

export async function viewerCanSee(kernel: Kernel, v: Viewer & { tenantId: number }, t: TicketRow): Promise<boolean> {
  const s = await visibilitySettings(kernel, v.tenantId);
  return canSee(v, { status: t.status, userId: t.user_id, queueId: t.queue_id, isGroup: t.is_group, chatbot: t.chatbot, wallets: t.contact_wallets ?? [] }, s);
}

export function factsOf(t: TicketOut): TicketFacts {
  return { status: t.status, userId: t.userId, queueId: t.queueId, isGroup: t.isGroup, chatbot: t.chatbot, wallets: t.contact?.wallets ?? [] };
}

/**
 * The same rule as SQL for the list query, over alias `t`. Appends its
 * parameters to `params` and returns the WHERE fragment.
 */
export function visibilitySql(v: Viewer, s: VisibilitySettings, params: unknown[], opts: { showAll: boolean; includeNotQueueDefined: boolean }): string {
  const p = (x: unknown) => {
    params.push(x);
    return `$${params.length}`;
  };
  if (opts.showAll && seesAll(v, s)) return 'TRUE';
  const me = p(v.userId);
  const parts: string[] = [];
  const closedRule = s.mostrarFechadoParaTodos ? 'TRUE' : `t.status <> 'closed'`;
  const assigned = s.NotViewAssignedTickets ? 't.user_id IS NULL' : 'TRUE';
  const bot = s.NotViewTicketsChatBot ? 'NOT t.chatbot' : 'TRUE';
  const wallet = s.DirectTicketsToWallets
    ? `(NOT EXISTS (SELECT 1 FROM contact_wallets w WHERE w.tenant_id = t.tenant_id AND w.contact_id = t.contact_id) OR EXISTS (SELECT 1 FROM contact_wallets w WHERE w.tenant_id = t.tenant_id AND w.contact_id = t.contact_id AND w.user_id = ${me}))`
    : 'TRUE';
  let queue = 'TRUE';
  if (v.queues.length > 0) {
    const q = p(v.queues);
    queue = opts.includeNotQueueDefined ? `(t.queue_id = ANY(${q}::int[]) OR t.queue_id IS NULL)` : `t.queue_id = ANY(${q}::int[])`;
  } else if (!opts.includeNotQueueDefined) {
    queue = 't.queue_id IS NOT NULL';
  }
  parts.push(`t.user_id = ${me}`);
  if (s.mostrarGruposParaTodos) parts.push('t.is_group');
  parts.push(`(${closedRule} AND ${assigned} AND ${bot} AND ${wallet} AND ${queue})`);
  return `(${parts.join(' OR ')})`;
}

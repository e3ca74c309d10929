import type pg from 'pg';
import { z } from 'zod';
import { AppError } from '../../errors.ts';

/**
 * Tenant settings (spec core.md §3, administration.md §3 "Settings"): key/value
 * rows in `settings`, typed here. Every key has a default, so a tenant without
 * rows behaves exactly as documented in docs/settings.md.
 */
const flag = z.enum(['enabled', 'disabled']);

export const settingsShape = {
  // Ticket visibility (core.md §6).
  NotViewAssignedTickets: flag,
  NotViewTicketsChatBot: flag,
  ViewTicketsWithoutQueue: flag,
  DirectTicketsToWallets: flag,
  mostrarGruposParaTodos: flag,
  mostrarFechadoParaTodos: flag,
  supervisorAdmin: flag,
  ForceAdminPendingAssignment: flag,
  ForceSignature: flag,
  // Flags the shell reads for its filters; the server stores them only.
  nullticket: flag,
  tagFiltro: flag,
  kanbanFiltro: flag,
  // Platform (tenant 1) only: whether public signup creates tenants.
  userCreation: flag,
  // Numeric limits whose values the spec does not show (core.md §9).
  maxAbsenceMessageRetries: z.number().int().min(0).max(100),
  ticketsFetchLimit: z.number().int().min(10).max(500),
  internalChatMessageLimit: z.number().int().min(10).max(1000),
  // Auto-resolve idle tickets after this many minutes (core.md §9 options; 0 = never).
  autoCloseMinutes: z.union([z.literal(0), z.literal(10), z.literal(60), z.literal(1440), z.literal(7200), z.literal(14400)]),
} as const;

export const settingsSchema = z.object(settingsShape);
export type TenantSettings = z.infer<typeof settingsSchema>;

export const settingsUpdateSchema = settingsSchema.partial().strict();

export const SETTINGS_DEFAULTS: TenantSettings = {
  NotViewAssignedTickets: 'disabled',
  NotViewTicketsChatBot: 'disabled',
  ViewTicketsWithoutQueue: 'disabled',
  DirectTicketsToWallets: 'disabled',
  mostrarGruposParaTodos: 'disabled',
  mostrarFechadoParaTodos: 'disabled',
  supervisorAdmin: 'disabled',
  ForceAdminPendingAssignment: 'disabled',
  ForceSignature: 'disabled',
  nullticket: 'disabled',
  tagFiltro: 'disabled',
  kanbanFiltro: 'disabled',
  userCreation: 'enabled',
  maxAbsenceMessageRetries: 3,
  ticketsFetchLimit: 50,
  internalChatMessageLimit: 100,
  autoCloseMinutes: 0,
};

const NUMERIC = new Set(['maxAbsenceMessageRetries', 'ticketsFetchLimit', 'internalChatMessageLimit', 'autoCloseMinutes']);
const KNOWN = new Set(Object.keys(settingsShape));

/** Settings keys only the platform tenant may set. */
export const PLATFORM_ONLY_SETTINGS = new Set(['userCreation']);

/** The three hiding settings that the spec forbids combining (core.md §5, administration.md §5). */
export const EXCLUSIVE_SETTINGS = ['NotViewAssignedTickets', 'NotViewTicketsChatBot', 'ViewTicketsWithoutQueue'] as const;

/** Parses stored rows into typed settings; an unreadable stored value falls back to its default. */
export function parseSettings(rows: { key: string; value: string }[]): TenantSettings {
  const out: Record<string, unknown> = { ...SETTINGS_DEFAULTS };
  for (const { key, value } of rows) {
    if (!KNOWN.has(key)) continue;
    const raw = NUMERIC.has(key) ? Number(value) : value;
    const parsed = settingsShape[key as keyof typeof settingsShape].safeParse(raw);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as TenantSettings;
}

export async function loadSettings(pool: pg.Pool, tenantId: number): Promise<TenantSettings> {
  const r = await pool.query<{ key: string; value: string }>('SELECT key, value FROM settings WHERE tenant_id = $1', [tenantId]);
  return parseSettings(r.rows);
}

/** Refuses a combination of the exclusive hiding settings (ERR_SETTINGS_CONFLICT). */
export function assertNoConflict(s: TenantSettings): void {
  const on = EXCLUSIVE_SETTINGS.filter((k) => s[k] === 'enabled');
  if (on.length > 1) throw new AppError('ERR_SETTINGS_CONFLICT', {}, { conflicting: on });
}

/**
 * Applies a partial update in one transaction; the row lock on the tenant
 * serialises concurrent updates so two requests cannot each enable one of the
 * exclusive settings and end up combined.
 */
export async function updateSettings(pool: pg.Pool, tenantId: number, patch: Partial<TenantSettings>): Promise<TenantSettings> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT 1 FROM tenants WHERE id = $1 FOR UPDATE', [tenantId]);
    const r = await client.query<{ key: string; value: string }>('SELECT key, value FROM settings WHERE tenant_id = $1', [tenantId]);
    const next = { ...parseSettings(r.rows), ...patch };
    assertNoConflict(next);
    for (const [key, value] of Object.entries(patch)) {
      await client.query(
        `INSERT INTO settings (tenant_id, key, value) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [tenantId, key, String(value)],
      );
    }
    await client.query('COMMIT');
    return next;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

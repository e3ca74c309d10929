import { randomBytes, createHash } from 'node:crypto';
import type pg from 'pg';
import type { Principal, Profile } from '../../sdk/types.ts';
import { AppError } from '../../errors.ts';

/** Access tokens live 15 minutes; refresh tokens rotate on every use. */
export const ACCESS_TTL_SECONDS = 15 * 60;

export interface AccessClaims {
  sub: number;
  tid: number;
  prf: Profile;
  /** Session (refresh family) id: revoking it ends this session's HTTP and socket access. */
  sid: string;
  /** User token version: bumped when the user is disabled or logs out everywhere. */
  tv: number;
}

/** Reads (or creates, once per install) a random secret shared by every node through the database. */
export async function installSecret(pool: pg.Pool, key: string, bytes = 48): Promise<string> {
  await pool.query('INSERT INTO install_secrets (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, randomBytes(bytes).toString('base64url')]);
  const r = await pool.query<{ value: string }>('SELECT value FROM install_secrets WHERE key = $1', [key]);
  return r.rows[0].value;
}

export const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');

export interface SessionCheckRow {
  id: number;
  tenant_id: number;
  name: string;
  email: string;
  profile: Profile;
  active: boolean;
  token_version: number;
  revoked_at: Date | null;
  tenant_status: string;
  tenant_blocked: boolean;
  queues: number[];
  user_menus: Record<string, boolean>;
  tenant_menus: Record<string, boolean>;
  supervisor_admin: string | null;
  terms_accepted: boolean;
}

export interface ResolvedPrincipal extends Principal {
  sid: string;
  queues: number[];
  userMenus: Record<string, boolean>;
  tenantMenus: Record<string, boolean>;
  tenantBlocked: boolean;
  /** supervisorAdmin setting on: a supervisor follows regular user rules. */
  supervisorDemoted: boolean;
  /** Whether the install's terms of use have been accepted by the superadmin. */
  termsAccepted: boolean;
}

/**
 * Turns verified claims into a Principal, checking against the database that the
 * session is still live, the user still active and the tenant still active.
 * One indexed query per request: the price of logout and disable taking effect at once.
 * The tenant is checked first so the users of a deactivated tenant are told why
 * (ERR_TENANT_INACTIVE) even though their sessions were revoked with it.
 */
export async function resolvePrincipal(pool: pg.Pool, claims: AccessClaims): Promise<ResolvedPrincipal> {
  // Every authenticated request and socket runs this: a named statement is parsed and planned
  // once per connection (primary-key lookups only, so the generic plan is the right one).
  const r = await pool.query<SessionCheckRow>({
    name: 'atende_principal',
    text: `SELECT u.id, u.tenant_id, u.name, u.email, u.profile, u.active, u.token_version, s.revoked_at,
            t.status AS tenant_status, t.blocked AS tenant_blocked, u.queues, u.menus AS user_menus, t.menus AS tenant_menus,
            (SELECT value FROM settings st WHERE st.tenant_id = u.tenant_id AND st.key = 'supervisorAdmin') AS supervisor_admin,
            EXISTS (SELECT 1 FROM tenants p WHERE p.id = 1 AND p.terms_accepted_at IS NOT NULL) AS terms_accepted
       FROM users u
       JOIN auth_sessions s ON s.id = $2 AND s.user_id = u.id
       JOIN tenants t ON t.id = u.tenant_id
      WHERE u.id = $1`,
    values: [claims.sub, claims.sid],
  });
  const row = r.rows[0];
  if (!row || row.tenant_id !== claims.tid) throw new AppError('ERR_INVALID_TOKEN');
  if (row.tenant_status !== 'active') throw new AppError('ERR_TENANT_INACTIVE');
  if (row.revoked_at || !row.active || row.token_version !== claims.tv) throw new AppError('ERR_SESSION_EXPIRED');
  return {
    userId: row.id, tenantId: row.tenant_id, profile: row.profile, email: row.email, name: row.name, sid: claims.sid,
    queues: row.queues, userMenus: row.user_menus, tenantMenus: row.tenant_menus, tenantBlocked: row.tenant_blocked,
    supervisorDemoted: row.profile === 'super' && row.supervisor_admin === 'enabled',
    termsAccepted: row.terms_accepted,
  };
}

/**
 * What open sockets of a tenant's users may see now (realtime/hub.ts reloads them when a user,
 * queue or setting changes): the same fields `resolvePrincipal` gives, for the active users of
 * an active tenant only — anyone absent has lost access.
 */
export async function reloadRecipients(pool: pg.Pool, tenantId: number, userIds: number[] | undefined): Promise<Map<number, Omit<ResolvedPrincipal, 'sid'>>> {
  const r = await pool.query<Omit<SessionCheckRow, 'revoked_at' | 'token_version' | 'active' | 'tenant_status'>>(
    `SELECT u.id, u.tenant_id, u.name, u.email, u.profile, u.queues, u.menus AS user_menus, t.menus AS tenant_menus, t.blocked AS tenant_blocked,
            (SELECT value FROM settings st WHERE st.tenant_id = u.tenant_id AND st.key = 'supervisorAdmin') AS supervisor_admin,
            EXISTS (SELECT 1 FROM tenants p WHERE p.id = 1 AND p.terms_accepted_at IS NOT NULL) AS terms_accepted
       FROM users u JOIN tenants t ON t.id = u.tenant_id
      WHERE u.tenant_id = $1 AND ($2::int[] IS NULL OR u.id = ANY($2::int[])) AND u.active AND t.status = 'active'`,
    [tenantId, userIds ?? null],
  );
  return new Map(
    r.rows.map((row) => [row.id, {
      userId: row.id, tenantId: row.tenant_id, profile: row.profile, email: row.email, name: row.name,
      queues: row.queues, userMenus: row.user_menus, tenantMenus: row.tenant_menus, tenantBlocked: row.tenant_blocked,
      supervisorDemoted: row.profile === 'super' && row.supervisor_admin === 'enabled',
      termsAccepted: row.terms_accepted,
    }]),
  );
}

export const sessionMigrations = [
  {
    name: '0002_sessions',
    up: [
      `CREATE TABLE auth_sessions (
        id uuid PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        revoked_reason text,
        ip text,
        user_agent text)`,
      `CREATE INDEX auth_sessions_user_idx ON auth_sessions (user_id) WHERE revoked_at IS NULL`,
      `CREATE TABLE auth_refresh_tokens (
        token_hash text PRIMARY KEY,
        session_id uuid NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz)`,
      `CREATE INDEX auth_refresh_tokens_session_idx ON auth_refresh_tokens (session_id)`,
    ],
  },
];

export const newOpaqueToken = () => randomBytes(32).toString('base64url');

/** Password-reset tokens, login throttle counters (PostgreSQL implementation) and used captcha challenges. */
export const authMigrations = [
  {
    name: '0003_auth',
    up: [
      `CREATE TABLE auth_password_resets (
        token_hash text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz)`,
      `CREATE INDEX auth_password_resets_user_idx ON auth_password_resets (user_id)`,
      `CREATE UNLOGGED TABLE auth_throttle (
        key text PRIMARY KEY,
        failures integer NOT NULL,
        window_ends_at timestamptz NOT NULL,
        locked_until timestamptz)`,
      `CREATE UNLOGGED TABLE auth_captcha_used (id text PRIMARY KEY, expires_at timestamptz NOT NULL)`,
      `CREATE INDEX auth_sessions_tenant_idx ON auth_sessions (tenant_id) WHERE revoked_at IS NULL`,
    ],
  },
];

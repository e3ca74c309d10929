import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AtendeConfig } from '../../config.ts';
import type { OutboundPort } from '../../net/outbound.ts';
import { providerReason } from '../../sdk/channel.ts';
import { installSecret } from '../identity/tokens.ts';

/**
 * Outgoing mail (password recovery, SMTP tests). The transport is chosen per
 * message, first match wins:
 *   1. the SMTP settings of the message's tenant (administration.md §3 "SMTP");
 *   2. the SMTP settings of the platform tenant (the superadmin's "Email" screen);
 *   3. the install's SMTP_URL;
 *   4. none: the message is kept in `mail_outbox`, never lost, and the
 *      superadmin reads it (`GET /api/mail/outbox`, `atende mail list`).
 * A message whose sending fails is kept in the outbox too, with the reason.
 *
 * Tenant SMTP servers (1, 2) are reached through the outbound guard: the host
 * is resolved and checked, and the connection goes to the checked address
 * with the host name kept for TLS. The install's SMTP_URL is the operator's
 * own choice and is not checked.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SmtpSettings {
  host: string;
  port: number;
  user?: string | null;
  password?: string | null;
  secure: boolean;
  from?: string | null;
}

export type SendResult = { delivered: true; via: 'tenant' | 'platform' | 'install'; messageId: string } | { delivered: false; outboxId: number; status: 'no_smtp' | 'send_failed' };

export interface OutboxEntry {
  id: number;
  tenantId: number | null;
  to: string;
  subject: string;
  text: string;
  /** no_smtp: kept because no SMTP is configured; send_failed: the SMTP server refused or could not be reached. */
  status: 'no_smtp' | 'send_failed';
  error: string | null;
  createdAt: string;
}

/** Lists the newest outbox messages (the CLI's `atende mail list` calls this with its own pool). */
export async function listOutbox(pool: pg.Pool, opts: { limit?: number; tenantId?: number } = {}): Promise<OutboxEntry[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  const r = await pool.query<{ id: number; tenant_id: number | null; to_address: string; subject: string; text_body: string; status: 'no_smtp' | 'send_failed'; error: string | null; created_at: Date }>(
    `SELECT id, tenant_id, to_address, subject, text_body, status, error, created_at FROM mail_outbox
      WHERE ($1::int IS NULL OR tenant_id = $1) ORDER BY id DESC LIMIT $2`,
    [opts.tenantId ?? null, limit],
  );
  return r.rows.map((x) => ({ id: Number(x.id), tenantId: x.tenant_id, to: x.to_address, subject: x.subject, text: x.text_body, status: x.status, error: x.error, createdAt: x.created_at.toISOString() }));
}

export class Mailer {
  private key?: Promise<Buffer>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly config: Pick<AtendeConfig, 'smtpUrl' | 'smtpFrom'>,
    private readonly logger: Logger,
    private readonly outbound: Pick<OutboundPort, 'resolve'>,
  ) {}

  /** The SMTP password is stored encrypted with a per-install key, so a database dump alone does not reveal it. */
  private cipherKey(): Promise<Buffer> {
    return (this.key ??= installSecret(this.pool, 'smtp').then((s) => Buffer.from(hkdfSync('sha256', s, 'atende', 'smtp-password', 32))));
  }

  async encrypt(plain: string): Promise<string> {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', await this.cipherKey(), iv);
    return Buffer.concat([iv, c.update(plain, 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
  }

  async decrypt(sealed: string): Promise<string> {
    const raw = Buffer.from(sealed, 'base64');
    const d = createDecipheriv('aes-256-gcm', await this.cipherKey(), raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString('utf8');
  }

  async getSmtp(tenantId: number): Promise<(SmtpSettings & { hasPassword: boolean }) | undefined> {
    const r = await this.pool.query<{ host: string; port: number; username: string | null; password_enc: string | null; secure: boolean; from_address: string | null }>(
      'SELECT host, port, username, password_enc, secure, from_address FROM mail_smtp_settings WHERE tenant_id = $1',
      [tenantId],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    return {
      host: row.host,
      port: row.port,
      user: row.username,
      password: row.password_enc ? await this.decrypt(row.password_enc) : null,
      secure: row.secure,
      from: row.from_address,
      hasPassword: !!row.password_enc,
    };
  }

  /** Saves a tenant's SMTP settings; `password: undefined` keeps the stored one, `null` clears it. */
  async setSmtp(tenantId: number, s: SmtpSettings): Promise<void> {
    const enc = s.password === undefined ? undefined : s.password === null || s.password === '' ? null : await this.encrypt(s.password);
    await this.pool.query(
      `INSERT INTO mail_smtp_settings (tenant_id, host, port, username, password_enc, secure, from_address)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant_id) DO UPDATE SET host = EXCLUDED.host, port = EXCLUDED.port, username = EXCLUDED.username,
         password_enc = CASE WHEN $8 THEN mail_smtp_settings.password_enc ELSE EXCLUDED.password_enc END,
         secure = EXCLUDED.secure, from_address = EXCLUDED.from_address, updated_at = now()`,
      [tenantId, s.host, s.port, s.user ?? null, enc ?? null, s.secure, s.from ?? null, enc === undefined],
    );
  }

  async deleteSmtp(tenantId: number): Promise<void> {
    await this.pool.query('DELETE FROM mail_smtp_settings WHERE tenant_id = $1', [tenantId]);
  }

  /** A transport to a tenant's SMTP server, connecting to the address the guard checked (no DNS between check and connect). */
  private async transportFor(s: SmtpSettings) {
    const { address } = await this.outbound.resolve(s.host);
    const name = s.host.trim().toLowerCase();
    return nodemailer.createTransport({
      host: address,
      // TLS (implicit or STARTTLS) is verified against the name the admin typed, not the address.
      ...(address !== name ? { servername: name, tls: { servername: name } } : {}),
      port: s.port,
      secure: s.secure,
      auth: s.user ? { user: s.user, pass: s.password ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  private async resolve(tenantId: number | null): Promise<{ via: 'tenant' | 'platform' | 'install'; transport: nodemailer.Transporter; from: string } | undefined> {
    for (const [via, tid] of [['tenant', tenantId], ['platform', 1]] as const) {
      if (tid === null || (via === 'platform' && tenantId === 1)) continue;
      const s = await this.getSmtp(tid);
      if (s) return { via, transport: await this.transportFor(s), from: s.from || this.config.smtpFrom || s.user || `atende@${s.host}` };
    }
    if (this.config.smtpUrl) {
      const host = new URL(this.config.smtpUrl).hostname;
      return { via: 'install', transport: nodemailer.createTransport(this.config.smtpUrl), from: this.config.smtpFrom ?? `atende@${host}` };
    }
    return undefined;
  }

  async send(tenantId: number | null, msg: MailMessage): Promise<SendResult> {
    let t: Awaited<ReturnType<Mailer['resolve']>>;
    try {
      t = await this.resolve(tenantId);
    } catch (err) {
      // A tenant SMTP host the guard refuses (or cannot resolve): the mail waits in the outbox, like any failed send.
      this.logger.warn({ tenant: tenantId, err: (err as Error).message }, 'mail not sent: SMTP host refused or unresolvable; kept in outbox');
      return this.keep(tenantId, msg, 'send_failed', providerReason((err as Error).message, 300));
    }
    if (!t) return this.keep(tenantId, msg, 'no_smtp', null);
    try {
      const info = await t.transport.sendMail({ from: t.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
      this.logger.info({ tenant: tenantId, via: t.via, subject: msg.subject }, 'mail sent');
      return { delivered: true, via: t.via, messageId: String(info.messageId ?? '') };
    } catch (err) {
      this.logger.warn({ tenant: tenantId, via: t.via, err: (err as Error).message }, 'mail not sent; kept in outbox');
      return this.keep(tenantId, msg, 'send_failed', providerReason((err as Error).message, 300));
    } finally {
      t.transport.close();
    }
  }

  /** Sends through one explicit SMTP configuration, throwing on failure (the SMTP test button). */
  async sendWith(s: SmtpSettings, msg: MailMessage): Promise<string> {
    const transport = await this.transportFor(s);
    try {
      const info = await transport.sendMail({ from: s.from || this.config.smtpFrom || s.user || `atende@${s.host}`, ...msg });
      return String(info.messageId ?? '');
    } finally {
      transport.close();
    }
  }

  private async keep(tenantId: number | null, msg: MailMessage, status: 'no_smtp' | 'send_failed', error: string | null): Promise<SendResult> {
    const r = await this.pool.query<{ id: number }>(
      `INSERT INTO mail_outbox (tenant_id, to_address, subject, text_body, html_body, status, error) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [tenantId, msg.to, msg.subject, msg.text, msg.html ?? null, status, error],
    );
    if (status === 'no_smtp') this.logger.info({ tenant: tenantId, subject: msg.subject }, 'no SMTP configured: mail kept in outbox');
    return { delivered: false, outboxId: Number(r.rows[0].id), status };
  }
}

export const mailMigrations = [
  {
    name: '0001_init',
    up: [
      `CREATE TABLE mail_outbox (
        id bigserial PRIMARY KEY,
        tenant_id integer REFERENCES tenants(id) ON DELETE CASCADE,
        to_address text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text,
        status text NOT NULL CHECK (status IN ('no_smtp','send_failed')),
        error text,
        created_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE TABLE mail_smtp_settings (
        tenant_id integer PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
        host text NOT NULL,
        port integer NOT NULL,
        username text,
        password_enc text,
        secure boolean NOT NULL DEFAULT false,
        from_address text,
        updated_at timestamptz NOT NULL DEFAULT now())`,
    ],
  },
];

import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { isoDate } from '../../sdk/contract.ts';
import { principalOf } from '../../sdk/http.ts';
import { Mailer, listOutbox } from './mailer.ts';
import { OutboundBlockedError } from '../../net/outbound.ts';
import { isPublicAddress, normalizeHost } from '../../net/addresses.ts';

/** SMTP ports: submission, implicit TLS, relay, and the common alternative. Others only for a host the superadmin allowed. */
const SMTP_PORTS = new Set([25, 465, 587, 2525]);

const mailers = new WeakMap<Kernel, Mailer>();

/** The install's mailer (one per kernel). */
export function mailerOf(kernel: Kernel): Mailer {
  let m = mailers.get(kernel);
  if (!m) mailers.set(kernel, (m = new Mailer(kernel.db.pool, kernel.config, kernel.logger.child({ mod: 'mail' }), kernel.outbound)));
  return m;
}

const smtpBody = z
  .object({
    host: z.string().trim().min(1).max(253),
    port: z.number().int().min(1).max(65535),
    user: z.string().max(254).nullish(),
    /** Omit to keep the stored password; null or '' clears it. */
    password: z.string().max(500).nullish(),
    secure: z.boolean().default(false),
    from: z.string().max(254).nullish(),
  })
  .strict();

const smtpAnswer = z.union([
  z.object({ configured: z.literal(false) }),
  z.object({ configured: z.literal(true), host: z.string(), port: z.number().int(), user: z.string().nullable(), secure: z.boolean(), from: z.string().nullable(), hasPassword: z.boolean() }),
]);

/** A kept message as `listOutbox` (mailer.ts) writes it. */
const outboxEntry = z.object({
  id: z.number().int(),
  tenantId: z.number().int().nullable(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(['no_smtp', 'send_failed']),
  error: z.string().nullable(),
  createdAt: isoDate,
});

export async function mailRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const mailer = mailerOf(kernel);

  /** Messages kept because no SMTP was configured or sending failed: platform superadmin only. */
  r.get(
    '/api/mail/outbox',
    { config: { access: { profiles: ['superadmin'], menu: 'email' } }, schema: { operationId: 'listMailOutbox', tags: ['mail'], summary: 'E-mails retidos (sem SMTP ou com falha no envio)', querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).optional(), tenantId: z.coerce.number().int().positive().optional() }), response: { 200: z.object({ messages: z.array(outboxEntry) }) } } },
    async (req) => ({ messages: await listOutbox(kernel.db.pool, req.query) }),
  );

  // SMTP settings of the caller's tenant (administration.md §3 "SMTP"); the password is never returned.
  const smtpAccess = { config: { access: { menu: 'settings', profiles: ['admin' as const] } } };
  r.get('/api/tenants/smtp', { ...smtpAccess, schema: { operationId: 'getSmtpSettings', tags: ['mail'], summary: 'Configuração SMTP da empresa (sem a senha)', response: { 200: smtpAnswer } } }, async (req) => {
    const s = await mailer.getSmtp(principalOf(req).tenantId);
    if (!s) return { configured: false as const };
    return { configured: true as const, host: s.host, port: s.port, user: s.user ?? null, secure: s.secure, from: s.from ?? null, hasPassword: s.hasPassword };
  });
  r.put('/api/tenants/smtp', { ...smtpAccess, schema: { operationId: 'updateSmtpSettings', tags: ['mail'], summary: 'Salva a configuração SMTP da empresa', body: smtpBody, response: { 200: smtpAnswer } } }, async (req) => {
    // An address that is not public (or a port no mail server uses) is refused at once unless the superadmin allowed the host;
    // names are checked again, after DNS, at each send.
    const host = normalizeHost(req.body.host);
    const allowed = await kernel.outbound.isAllowedHost(host);
    if (!allowed && net.isIP(host) && !isPublicAddress(host)) throw new OutboundBlockedError(host, 'smtp host address');
    if (!allowed && !SMTP_PORTS.has(req.body.port)) throw new AppError('ERR_VALIDATION', { details: 'porta SMTP: use 25, 465, 587 ou 2525' });
    await mailer.setSmtp(principalOf(req).tenantId, { ...req.body, password: req.body.password === undefined ? undefined : req.body.password });
    const s = (await mailer.getSmtp(principalOf(req).tenantId))!;
    return { configured: true as const, host: s.host, port: s.port, user: s.user ?? null, secure: s.secure, from: s.from ?? null, hasPassword: s.hasPassword };
  });
  r.delete('/api/tenants/smtp', { ...smtpAccess, schema: { operationId: 'deleteSmtpSettings', tags: ['mail'], summary: 'Remove a configuração SMTP da empresa', response: { 204: z.null() } } }, async (req, reply) => {
    await mailer.deleteSmtp(principalOf(req).tenantId);
    return reply.status(204).send(null);
  });
  /**
   * Sends a test message through the tenant's saved SMTP settings. A failure is answered
   * the same way whatever went wrong (refused, timed out, greeting, authentication): the
   * server's words stay in the log, so the test cannot be used to probe hosts and ports.
   */
  r.post('/api/tenants/smtp/test', { ...smtpAccess, schema: { operationId: 'testSmtpSettings', tags: ['mail'], summary: 'Envia um e-mail de teste pelo SMTP da empresa', body: z.object({ to: z.email().max(254) }).strict(), response: { 200: z.object({ sent: z.literal(true), messageId: z.string() }) } } }, async (req) => {
    const s = await mailer.getSmtp(principalOf(req).tenantId);
    if (!s) throw new AppError('ERR_SMTP_NOT_CONFIGURED');
    try {
      const messageId = await mailer.sendWith(s, { to: req.body.to, subject: 'Atende: teste de SMTP', text: 'Se você recebeu esta mensagem, o SMTP está configurado corretamente.' });
      return { sent: true as const, messageId };
    } catch (err) {
      if (err instanceof OutboundBlockedError) throw err;
      req.log.info({ event: 'smtp.test_failed', tenant: principalOf(req).tenantId, err: (err as Error).message }, 'SMTP test failed');
      throw new AppError('ERR_SMTP_SEND');
    }
  });
}

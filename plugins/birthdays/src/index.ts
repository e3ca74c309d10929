import { definePlugin, principalOf, type PluginContext } from '@atende/core/sdk';
import { BIRTHDAY_VARIABLES, birthdaysAnswer, birthdaysQuery, contract, sendBirthdayAnswer, sendBirthdayBody, type SendOutcome } from './contract.ts';

export { BIRTHDAY_VARIABLES, type SendOutcome };

/**
 * Birthdays (core.md §3, administration.md §3): today's and upcoming birthdays
 * from the contacts' birthday field, and each channel's birthday message sent
 * at that channel's whole hour in the tenant's time zone. A contact gets it
 * once a year: the ledger row (tenant, contact, year) is written before the
 * message is queued, so restarts, retries and several nodes never repeat it.
 */

const LEDGER = 'birthdays_sent';

/** Local date and hour of a tenant right now. */
export function localClock(timeZone: string, now = new Date()): { year: number; hour: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', hour: '2-digit', hour12: false }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { year: get('year'), hour: get('hour') % 24 };
}

/**
 * Sends today's birthday messages of one tenant. With `atHour`, only contacts
 * whose channel's hour has come (so a run missed during a restart catches up
 * later the same day); without it (the manual action), all of today's.
 */
export async function sendBirthdays(ctx: PluginContext, tenantId: number, opts: { atHour?: number; year: number; contactIds?: number[]; userId?: number | null }): Promise<SendOutcome[]> {
  const [contacts, channels] = await Promise.all([ctx.agentTools.birthdays(tenantId, { days: 0, contactIds: opts.contactIds }), ctx.agentTools.birthdayChannels(tenantId)]);
  const fallback = channels[0];
  const out: SendOutcome[] = [];
  for (const c of contacts) {
    const ch = channels.find((x) => x.id === c.channelId) ?? fallback;
    if (!ch?.message?.trim() || ch.hour === null) {
      out.push({ contactId: c.id, name: c.name, status: 'no_message' });
      continue;
    }
    if (opts.atHour !== undefined && ch.hour > opts.atHour) continue;
    // Claim first: a unique (tenant, contact, year) row; a failed one may be claimed again.
    const claim = await ctx.sql<{ id: number }>(
      `INSERT INTO ${LEDGER} (tenant_id, contact_id, year, channel_id, status) VALUES ($1, $2, $3, $4, 'claimed')
       ON CONFLICT (tenant_id, contact_id, year) DO UPDATE SET status = 'claimed', channel_id = EXCLUDED.channel_id, error = NULL, updated_at = now()
         WHERE ${LEDGER}.status = 'failed'
       RETURNING id`,
      [tenantId, c.id, opts.year, ch.id],
    );
    if (!claim.rowCount) {
      out.push({ contactId: c.id, name: c.name, status: 'already_sent' });
      continue;
    }
    try {
      const body = await ctx.templates.render(tenantId, ch.message, { contactId: c.id, birthday: true });
      const sent = await ctx.agentTools.sendToContact(tenantId, { contactId: c.id, channelId: ch.id, body, media: ch.media ?? undefined, userId: opts.userId ?? null, data: { birthday: true } });
      await ctx.sql(`UPDATE ${LEDGER} SET status = 'sent', message_id = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, claim.rows[0].id, sent.messageId]);
      out.push({ contactId: c.id, name: c.name, status: 'sent' });
    } catch (err) {
      const error = (err as { code?: string }).code ?? (err as Error).message;
      await ctx.sql(`UPDATE ${LEDGER} SET status = 'failed', error = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, claim.rows[0].id, error.slice(0, 300)]);
      ctx.logger.warn({ tenantId, contactId: c.id, error }, 'birthday message failed');
      out.push({ contactId: c.id, name: c.name, status: 'failed', error });
    }
  }
  return out;
}

export default definePlugin({
  id: 'birthdays',
  kind: 'feature',
  name: 'Aniversários',
  description: 'Aniversariantes do dia e próximos, e a mensagem de aniversário de cada canal na hora cheia escolhida.',
  contract,
  menus: [{ key: 'birthdays', label: 'menu.birthdays', route: '/aniversarios', profiles: ['super', 'admin', 'superadmin'], userMenu: 'birthdays' }],
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE ${LEDGER} (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          contact_id integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
          year smallint NOT NULL,
          channel_id integer,
          status text NOT NULL CHECK (status IN ('claimed','sent','failed')),
          message_id text,
          error text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now())`,
        // The once-a-year rule lives in this index, not in a read-then-write.
        `CREATE UNIQUE INDEX ${LEDGER}_once_key ON ${LEDGER} (tenant_id, contact_id, year)`,
        `CREATE INDEX ${LEDGER}_year_idx ON ${LEDGER} (tenant_id, year, created_at DESC)`,
      ],
    },
  ],
  ui: true,
  async register(ctx) {
    const access = { config: { access: { menu: 'birthdays' } } };
    const tags = ['birthdays'];
    // The send results name contacts and numbers: only users of the birthdays screen receive them (same rule as X1-8).
    ctx.realtime.addVisibilityFilter('birthday.sent', (who) => ctx.visibility.mayUseMenu(who, 'birthdays'));

    ctx.jobs.define<Record<string, never>>('hourly', async () => {
      let sent = 0;
      for (const { tenantId, timeZone } of await ctx.agentTools.tenantClocks()) {
        if (!(await ctx.isEnabled(tenantId))) continue;
        const { year, hour } = localClock(timeZone);
        const res = await sendBirthdays(ctx, tenantId, { atHour: hour, year });
        sent += res.filter((r) => r.status === 'sent').length;
        if (res.some((r) => r.status === 'sent')) await ctx.events.publish(tenantId, 'birthday.sent', { results: res });
      }
      return { sent };
    }, { concurrency: 1 });
    // Every half hour (UTC): zones with a half-hour offset reach their whole hour at :30.
    if (ctx.config.role !== 'api') await ctx.jobs.schedule('hourly', 'birthdays-hourly', { pattern: '0,30 * * * *' }, {});

    ctx.http.get(
      '/birthdays',
      { ...access, schema: { operationId: 'listBirthdays', tags, summary: 'Lista os aniversariantes de hoje e dos próximos dias e a mensagem de cada canal', querystring: birthdaysQuery, response: { 200: birthdaysAnswer } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        const { days } = req.query;
        const [contacts, channels, clock] = await Promise.all([
          ctx.agentTools.birthdays(tenantId, { days }),
          ctx.agentTools.birthdayChannels(tenantId),
          ctx.agentTools.tenantClocks().then((all) => all.find((x) => x.tenantId === tenantId)),
        ]);
        const year = localClock(clock?.timeZone ?? 'America/Sao_Paulo').year;
        const ledger = await ctx.sql<{ contact_id: number; status: 'claimed' | 'sent' | 'failed'; updated_at: Date }>(
          `SELECT contact_id, status, updated_at FROM ${LEDGER} WHERE tenant_id = $1 AND year = $2 AND contact_id = ANY($3::int[])`,
          [tenantId, year, contacts.filter((c) => c.daysUntil === 0).map((c) => c.id)],
        );
        const sent = new Map(ledger.rows.map((r) => [r.contact_id, r]));
        const withState = contacts.map((c) => ({ ...c, sentStatus: sent.get(c.id)?.status ?? null, sentAt: sent.get(c.id)?.updated_at.toISOString() ?? null }));
        return {
          timeZone: clock?.timeZone ?? 'America/Sao_Paulo',
          today: withState.filter((c) => c.daysUntil === 0),
          upcoming: withState.filter((c) => c.daysUntil > 0),
          channels,
          variables: [...BIRTHDAY_VARIABLES],
        };
      },
    );

    // The manual action: today's birthdays now, whatever the hour; still once a year per contact.
    ctx.api.post(
      '/messages/sendBirthday',
      { ...access, schema: { operationId: 'sendBirthdayMessages', tags, summary: 'Envia agora as mensagens de aniversário de hoje (uma vez por ano por contato)', body: sendBirthdayBody, response: { 200: sendBirthdayAnswer } } },
      async (req) => {
        const p = principalOf(req);
        const clock = (await ctx.agentTools.tenantClocks()).find((x) => x.tenantId === p.tenantId);
        const { year } = localClock(clock?.timeZone ?? 'America/Sao_Paulo');
        const results = await sendBirthdays(ctx, p.tenantId, { year, contactIds: req.body?.contactIds, userId: p.userId });
        await ctx.events.publish(p.tenantId, 'birthday.sent', { results });
        return { sent: results.filter((r) => r.status === 'sent').length, results };
      },
    );
  },
});

import { definePlugin, sql, type PluginDefinition } from '@atende/core/sdk';
import { BaileysChannel, BaileysMessage, type BaileysOptions } from './channel.ts';
import { contract } from './contract.ts';

export type { BaileysOptions } from './channel.ts';
export type { SocketFactory, WhatsAppSocket } from './socket.ts';

/**
 * WhatsApp through Baileys (WhatsApp Web's multi-device protocol), linked
 * by QR code or pairing code. The session is long-lived: the kernel runs it
 * on exactly one worker node under a lease; its keys live in the kernel's
 * PostgreSQL auth-state store, so it resumes on another node without a new
 * QR code.
 */
export function createBaileysPlugin(options: BaileysOptions = {}): PluginDefinition {
  return definePlugin({
    id: 'channel-baileys',
    kind: 'channel',
    contract,
    entities: [BaileysMessage],
    name: 'Canal WhatsApp (Baileys)',
    description: 'WhatsApp não oficial conectado por QR code ou código de pareamento: texto, mídia, reações, grupos e importação de histórico.',
    ui: true,
    migrations: [
      {
        name: '0001_init',
        up: [
          // Messages as WhatsApp sent them (key and content): for quoting, reacting, editing, Baileys' retry requests and history imports.
          `CREATE TABLE channel_baileys_messages (
            tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            channel_id integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
            provider_id text NOT NULL,
            chat_jid text NOT NULL,
            from_me boolean NOT NULL,
            ts timestamptz NOT NULL,
            history boolean NOT NULL DEFAULT false,
            message jsonb NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (tenant_id, channel_id, provider_id))`,
          `CREATE INDEX channel_baileys_messages_chat ON channel_baileys_messages (tenant_id, channel_id, chat_jid, ts)`,
        ],
      },
    ],
    register(ctx) {
      // One instance per app: tests run several apps (nodes) in one process.
      const channel = new BaileysChannel(ctx, options);
      ctx.channels.register(channel.adapter());
      // Live messages are kept a month for quotes, reactions and edits; linked-time history stays until the channel goes.
      ctx.jobs.define('prune', async () => {
        // Install-wide maintenance: the one statement here not scoped to a tenant.
        const [r] = await ctx.query<{ n: number }>(sql`
          WITH gone AS (DELETE FROM channel_baileys_messages WHERE NOT history AND created_at < now() - interval '30 days' RETURNING 1)
          SELECT count(*)::int AS n FROM gone`);
        return { deleted: r!.n };
      });
      void ctx.jobs.schedule('prune', 'daily', { pattern: '17 4 * * *' }, {}).catch((err) => ctx.logger.warn({ err: (err as Error).message }, 'baileys prune schedule failed'));
    },
  });
}

/**
 * The options of the plugin instance the kernel loads. Production leaves
 * them empty (Baileys' real `makeWASocket`); tests set `makeSocket` to a
 * fake WhatsApp before creating their app.
 */
export const baileysOptions: BaileysOptions = {};

export default createBaileysPlugin(baileysOptions);

/**
 * B1 ingest through the WhatsApp Cloud API channel: webhooks signed as Meta
 * signs them (`X-Hub-Signature-256`, HMAC-SHA256 of the raw body with each
 * tenant's app secret) from 100 tenants, through signature check, payload
 * parsing, dedup, contact and ticket upsert, message row, the plugin's own
 * row (reactions and read receipts) and the event to a subscribed agent socket.
 *   npm run bench -- ingest-waba [--seconds 20] [--connections 32]
 */
import { randomUUID } from 'node:crypto';
import { runIngestBench } from './_ingest-harness.ts';
import { SIGNATURE_HEADER, signWebhook } from '../../plugins/channel-waba/src/webhook.ts';

const PHONE_NUMBER_ID = '109876543210987';

function notification(from: string, name: string, text: string) {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '209876543210987',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '551140001234', phone_number_id: PHONE_NUMBER_ID },
              contacts: [{ profile: { name }, wa_id: from }],
              messages: [{ from, id: `wamid.${randomUUID()}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
}

const ok = await runIngestBench({
  label: 'B1 WABA',
  database: 'atende_bench_b1_waba',
  channelType: 'waba',
  configSql: `jsonb_build_object('phoneNumberId', '${PHONE_NUMBER_ID}', 'businessAccountId', '209876543210987', 'apiVersion', 'v21.0', 'verifyToken', 'verifica-' || g)`,
  secretsSql: `jsonb_build_object('webhookSecret', 'w-' || g, 'accessToken', 'EAAG-bench-' || g, 'appSecret', 'segredo-app-' || g)`,
  request: (ch) => {
    const contact = Math.floor(Math.random() * 2000);
    const body = notification(`55119${String(contact).padStart(8, '0')}`, `Cliente ${contact}`, `Olá t=${Date.now()}`);
    return {
      path: `/api/plugins/channel-waba/webhook/${ch.id}`,
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(`segredo-app-${ch.tenant_id}`, body) },
      body,
    };
  },
});
process.exit(ok ? 0 : 1);

import { z } from 'zod';
import { SWITCHES } from '../channels/settings.ts';
import { instant } from './schemas.ts';

/**
 * Answer schemas of the channel routes (channel-routes.ts), one per
 * serialiser: `channelOut` and `channelSummary` (modules/channels/settings.ts),
 * the status columns (`STATUS_COLS`, channels.ts) and the superadmin's table.
 */

const int = z.number().int();

/** `channelSummary`: what agents who do not manage channels see. */
export const channelSummarySchema = z.object({
  id: int,
  tenantId: int,
  type: z.string(),
  name: z.string(),
  number: z.string().nullable(),
  status: z.string(),
  statusAt: instant,
  isDefault: z.boolean(),
  queueId: int.nullable(),
});

/** `channelOut`: the whole form, for those who manage channels. */
export const channelSchema = channelSummarySchema.extend({
  qrcode: z.string().nullable(),
  pairingCode: z.string().nullable(),
  retries: int,
  lastError: z.string().nullable(),
  userId: int.nullable(),
  chatFlowId: int.nullable(),
  farewellMessage: z.string().nullable(),
  closingKeyword: z.string().nullable(),
  birthdayMessage: z.string().nullable(),
  birthdayHour: int.nullable(),
  birthdayMedia: z.object({ url: z.string(), name: z.string(), mimetype: z.string() }).nullable(),
  switches: z.object(Object.fromEntries(SWITCHES.map((k) => [k, z.boolean()])) as Record<(typeof SWITCHES)[number], z.ZodBoolean>),
  proxy: z.object({ use: z.boolean(), url: z.string().nullable(), user: z.string().nullable(), passwordSet: z.boolean() }),
  wavoipTokenCount: int,
  transcriptionConfigSet: z.boolean(),
  // The adapter's own settings, whose fields each channel plugin's schema defines (`ChannelAdapter.settings`).
  config: z.record(z.string(), z.unknown()),
  secretsSet: z.array(z.string()),
  createdAt: instant,
  updatedAt: instant,
});

/** `STATUS_COLS`: a channel's connection state after connect/disconnect. */
export const channelStatusSchema = z.object({
  id: int,
  name: z.string(),
  type: z.string(),
  status: z.string(),
  statusAt: instant,
  qrcode: z.string().nullable(),
  pairingCode: z.string().nullable(),
  retries: int,
  number: z.string().nullable(),
  lastError: z.string().nullable(),
});

/** A channel type a tenant may create (an adapter of an enabled plugin). */
export const channelTypeSchema = z.object({
  type: z.string(),
  label: z.string(),
  identityKind: z.string(),
  capabilities: z.object({
    media: z.array(z.string()),
    buttons: z.boolean(),
    lists: z.boolean(),
    templates: z.boolean(),
    reactions: z.boolean(),
    edit: z.boolean(),
    delete: z.boolean(),
    groups: z.boolean(),
    qr: z.boolean(),
    pairingCode: z.boolean(),
    historyImport: z.boolean(),
    readReceipts: z.boolean(),
    proxy: z.boolean().optional(),
  }),
  longLived: z.boolean(),
  lockedName: z.boolean(),
});

/** A row of the superadmin's table of every tenant's channels. */
export const platformChannelSchema = z.object({
  id: int,
  tenantId: int,
  tenantName: z.string(),
  type: z.string(),
  name: z.string(),
  number: z.string().nullable(),
  status: z.string(),
  statusAt: instant,
  isDefault: z.boolean(),
  retries: int,
  lastError: z.string().nullable(),
  createdAt: instant,
});

/** A history import of a channel (`channel_history_imports`). */
export const historyImportSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  imported: int,
  total: int.nullable(),
  error: z.string().nullable(),
  request: z.record(z.string(), z.unknown()),
  userId: int.nullable(),
  createdAt: instant,
  finishedAt: instant.nullable(),
});

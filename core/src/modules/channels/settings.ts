import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { ChannelAdapter } from '../../sdk/channel.ts';

/**
 * The channel form of administration.md §3 and how it is stored: kernel
 * columns for what the kernel acts on (routing defaults, farewell, closing
 * keyword, birthday message), `config.switches` and `config.proxy` for the
 * switches and the proxy, the adapter's own non-secret settings in the rest
 * of `config`, and every credential in `secrets`, which never leaves the
 * server (answers list only which secret names are set).
 */

export const SWITCHES = ['webPush', 'autoEvaluation', 'audioTranscription', 'autoDistribution', 'messageDestruction', 'disableIntegrationsOnOpen', 'waitIntegrationProcessing'] as const;
export type Switches = Record<(typeof SWITCHES)[number], boolean>;

/** Keys of `config` and `secrets` the kernel manages; the adapter's part may not use them. */
const KERNEL_CONFIG_KEYS = ['switches', 'proxy'];
const KERNEL_SECRET_KEYS = ['webhookSecret', 'proxyPassword', 'wavoipTokens', 'transcriptionConfig'];

const switchesBody = z.object(Object.fromEntries(SWITCHES.map((k) => [k, z.boolean().optional()])) as Record<(typeof SWITCHES)[number], z.ZodOptional<z.ZodBoolean>>).strict();

const proxyBody = z
  .object({
    use: z.boolean(),
    url: z.string().trim().max(500).nullable().optional(),
    user: z.string().trim().max(200).nullable().optional(),
    /** Blank or absent keeps the saved password; null removes it. */
    password: z.string().max(500).nullable().optional(),
  })
  .strict();

/** A whole hour: 0–23, or "HH:mm" whose minutes are ignored (spec §3, §9). */
const birthdayHour = z.union([z.number().int().min(0).max(23), z.string().trim().regex(/^([01]?\d|2[0-3])(:[0-5]\d)?$/, 'hora inteira entre 0 e 23')]).nullable();

const jsonRecord = z.record(z.string().max(100), z.unknown()).refine((v) => JSON.stringify(v).length <= 65_536, 'configuração grande demais');

export const channelCreateBody = z
  .object({
    type: z.string().trim().min(1).max(40),
    name: z.string().trim().min(1).max(120),
    number: z.string().trim().max(40).nullable().optional(),
    isDefault: z.boolean().optional(),
    queueId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
    userId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
    chatFlowId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
    farewellMessage: z.string().max(4096).nullable().optional(),
    closingKeyword: z.string().trim().max(100).nullable().optional(),
    birthdayMessage: z.string().max(4096).nullable().optional(),
    birthdayHour: birthdayHour.optional(),
    switches: switchesBody.optional(),
    /** JSON (object or text) for the speech service; kept as a secret since it usually carries a key. */
    transcriptionConfig: z.union([z.string().max(65_536), jsonRecord]).nullable().optional(),
    proxy: proxyBody.nullable().optional(),
    /** Voice-provider tokens, comma separated. */
    wavoipTokens: z.string().max(8000).nullable().optional(),
    /** The adapter's non-secret settings, whole: on edit it replaces the stored ones; null or blank values clear a field. */
    config: jsonRecord.optional(),
    /** The adapter's credentials: a value sets, null removes, blank or absent keeps. */
    secrets: z.record(z.string().max(100), z.string().max(8192).nullable()).optional(),
  })
  .strict();

export const channelUpdateBody = channelCreateBody.omit({ type: true }).partial();
export type ChannelInput = z.infer<typeof channelUpdateBody> & { type?: string };

export function wholeHour(v: number | string | null | undefined): number | null | undefined {
  if (v === undefined || v === null) return v;
  return typeof v === 'number' ? v : Number(v.split(':')[0]);
}

/** Evolution instance names: letters, digits, `_` and `-` only (accents dropped first). */
export function lockedNameOf(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9_-]/g, '');
}

export function parseWavoipTokens(v: string): string[] {
  const tokens = v.split(',').map((t) => t.trim()).filter(Boolean);
  if (tokens.length > 20 || tokens.some((t) => !/^[^\s]{4,400}$/.test(t))) throw new AppError('ERR_VALIDATION', { details: 'tokens Wavoip: até 20, separados por vírgula, sem espaços' });
  return [...new Set(tokens)];
}

export function parseTranscriptionConfig(v: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof v !== 'string') return v;
  try {
    const parsed = JSON.parse(v) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // falls through to the catalogue error
  }
  throw new AppError('ERR_INVALID_JSON');
}

/** What a cleared form field arrives as: null, or text with nothing but spaces. */
const isCleared = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

function validProxyUrl(url: string): boolean {
  try {
    return ['http:', 'https:', 'socks:', 'socks4:', 'socks5:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Applies a form to the stored config and secrets: switches and proxy into
 * their kernel keys; the adapter's settings, when sent, replace the stored
 * ones (the form always sends its whole `config`, so a field the admin left
 * out, blanked or nulled is cleared rather than silently kept); credentials
 * into secrets, where blank or absent keeps (the form never sees a saved
 * secret, so an untouched field arrives blank) and null removes. Refuses
 * kernel keys in the adapter's part and a proxy on a channel type that
 * would ignore it.
 */
export function mergeSettings(
  adapter: ChannelAdapter,
  b: ChannelInput,
  current: { config: Record<string, unknown>; secrets: Record<string, unknown> },
): { config: Record<string, unknown>; secrets: Record<string, unknown> } {
  const config = { ...current.config };
  const secrets = { ...current.secrets };
  for (const k of Object.keys(b.config ?? {})) if (KERNEL_CONFIG_KEYS.includes(k)) throw new AppError('ERR_VALIDATION', { details: `config.${k} é reservado; use o campo ${k}` });
  for (const k of Object.keys(b.secrets ?? {})) if (KERNEL_SECRET_KEYS.includes(k)) throw new AppError('ERR_VALIDATION', { details: `secrets.${k} é reservado` });
  if (b.config) {
    for (const k of Object.keys(config)) if (!KERNEL_CONFIG_KEYS.includes(k)) delete config[k];
    for (const [k, v] of Object.entries(b.config)) if (!isCleared(v)) config[k] = v;
  }
  for (const [k, v] of Object.entries(b.secrets ?? {})) {
    if (v === null) delete secrets[k];
    else if (v.trim() !== '') secrets[k] = v.trim();
  }
  if (b.switches) config.switches = { ...(current.config.switches as object | undefined), ...b.switches };
  if (b.proxy !== undefined) {
    if (b.proxy === null || !b.proxy.use) {
      config.proxy = b.proxy ? { use: false, url: b.proxy.url ?? null, user: b.proxy.user ?? null } : null;
      if (b.proxy === null || b.proxy.password === null) delete secrets.proxyPassword;
    } else {
      if (!adapter.capabilities.proxy) throw new AppError('ERR_CHANNEL_NOT_SUPPORTED', { feature: 'proxy' });
      const url = b.proxy.url ?? (current.config.proxy as { url?: string } | undefined)?.url;
      if (!url || !validProxyUrl(url)) throw new AppError('ERR_VALIDATION', { details: 'proxy: informe uma URL http(s) ou socks válida' });
      config.proxy = { use: true, url, user: b.proxy.user ?? null };
      if (b.proxy.password === null) delete secrets.proxyPassword;
      else if (b.proxy.password) secrets.proxyPassword = b.proxy.password;
    }
  }
  if (b.wavoipTokens !== undefined) {
    const tokens = b.wavoipTokens ? parseWavoipTokens(b.wavoipTokens) : [];
    if (tokens.length) secrets.wavoipTokens = tokens;
    else delete secrets.wavoipTokens;
  }
  if (b.transcriptionConfig !== undefined) {
    if (b.transcriptionConfig === null || b.transcriptionConfig === '') delete secrets.transcriptionConfig;
    else secrets.transcriptionConfig = parseTranscriptionConfig(b.transcriptionConfig);
  }
  return { config, secrets };
}

export interface ChannelRow {
  id: number;
  tenant_id: number;
  type: string;
  name: string;
  number: string | null;
  status: string;
  is_default: boolean;
  queue_id: number | null;
  user_id: number | null;
  chatflow_id: number | null;
  farewell_message: string | null;
  closing_keyword: string | null;
  birthday_message: string | null;
  birthday_hour: number | null;
  birthday_media: { url: string; name: string; mimetype: string } | null;
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
  qrcode: string | null;
  pairing_code: string | null;
  retries: number;
  last_error: string | null;
  status_at: Date;
  created_at: Date;
  updated_at: Date;
}

/**
 * A channel as answered to those who manage channels: every form field, the
 * status lifecycle, and for credentials only which ones are set.
 */
export function channelOut(r: ChannelRow) {
  const { switches, proxy, ...adapterConfig } = r.config ?? {};
  const sw = (switches ?? {}) as Partial<Switches>;
  const px = proxy as { use?: boolean; url?: string | null; user?: string | null } | null | undefined;
  const secrets = r.secrets ?? {};
  return {
    id: r.id,
    tenantId: r.tenant_id,
    type: r.type,
    name: r.name,
    number: r.number,
    status: r.status,
    statusAt: r.status_at,
    qrcode: r.qrcode,
    pairingCode: r.pairing_code,
    retries: r.retries,
    lastError: r.last_error,
    isDefault: r.is_default,
    queueId: r.queue_id,
    userId: r.user_id,
    chatFlowId: r.chatflow_id,
    farewellMessage: r.farewell_message,
    closingKeyword: r.closing_keyword,
    birthdayMessage: r.birthday_message,
    birthdayHour: r.birthday_hour,
    birthdayMedia: r.birthday_media,
    switches: Object.fromEntries(SWITCHES.map((k) => [k, sw[k] ?? false])) as Switches,
    proxy: { use: !!px?.use, url: px?.url ?? null, user: px?.user ?? null, passwordSet: typeof secrets.proxyPassword === 'string' },
    wavoipTokenCount: Array.isArray(secrets.wavoipTokens) ? secrets.wavoipTokens.length : 0,
    transcriptionConfigSet: !!secrets.transcriptionConfig,
    config: adapterConfig,
    secretsSet: Object.keys(secrets).filter((k) => !KERNEL_SECRET_KEYS.includes(k)).sort(),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type ChannelOut = ReturnType<typeof channelOut>;

/** What agents (who do not manage channels) see: enough to pick and filter, no QR code, settings or errors. */
export function channelSummary(c: ChannelOut) {
  return { id: c.id, tenantId: c.tenantId, type: c.type, name: c.name, number: c.number, status: c.status, statusAt: c.statusAt, isDefault: c.isDefault, queueId: c.queueId };
}

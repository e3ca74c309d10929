import path from 'node:path';
import { z } from 'zod';
import { isStrongPassword } from './validation/index.ts';
import { parseAllowList, parseCidr } from './net/addresses.ts';

/**
 * Install configuration. Read once from the environment (the only place in the
 * codebase that touches `process.env`) and validated at boot, so a bad value
 * stops the process with a message naming the variable.
 */
const onOff = z.enum(['on', 'off']);
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `deve ser uma URL ${protocols.join(' ou ')}`)
    .optional();

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  ATENDE_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  ATENDE_CAPTCHA: onOff.default('on'),
  ATENDE_ADMIN_EMAIL: z.email().optional(),
  ATENDE_ADMIN_PASSWORD: z
    .string()
    .refine(isStrongPassword, 'a senha deve ter pelo menos 7 caracteres, com letras, números e um caractere especial')
    .optional(),
  ATENDE_NAMESPACE: z.string().regex(/^[a-z0-9-]{1,40}$/, 'use letras minúsculas, números e hífens').default('atende'),
  ATENDE_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  ATENDE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ATENDE_CORS_ORIGIN: z.string().optional(),
  ATENDE_PUBLIC_URL: optionalUrl(['http:', 'https:']),
  ATENDE_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  ATENDE_METRICS_TOKEN: z.string().min(16).optional(),
  ATENDE_API_DOCS: z.enum(['login', 'open', 'off']).default('login'),
  /** Requests per minute per tenant and client address (logged-in calls); 0 turns the limit off. */
  ATENDE_RATE_LIMIT_TENANT: z.coerce.number().int().min(0).max(10_000_000).default(3000),
  /** Requests per minute per client address for calls without a session (login, signup, reset…); 0 turns it off. */
  ATENDE_RATE_LIMIT_IP: z.coerce.number().int().min(0).max(10_000_000).default(600),
  /** Open sockets one session (a browser's tabs share it) and one user may hold on a node; past it the new one is closed with 4008. */
  ATENDE_WS_MAX_PER_SESSION: z.coerce.number().int().min(1).max(10_000).default(20),
  ATENDE_WS_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(50),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  /**
   * Hosts and address ranges tenant-configured destinations may reach although they are not
   * public (on-premise providers, an internal SMTP relay): `smtp.corp.local,10.20.0.0/16`.
   */
  ATENDE_OUTBOUND_ALLOW: z
    .string()
    .refine((v) => parseAllowList(v.split(',')).invalid.length === 0, 'use nomes de host, endereços IP ou faixas CIDR separados por vírgula')
    .optional(),
  /**
   * Which proxies in front of the server to believe about the client's address
   * (`X-Forwarded-For`): a hop count (`1`), or addresses/CIDRs (`10.0.0.1,10.1.0.0/16`,
   * also `loopback`, `linklocal`, `uniquelocal`). Unset: none, the socket's address counts.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .refine(
      (v) => /^\d{1,2}$/.test(v) || v.split(',').every((x) => ['loopback', 'linklocal', 'uniquelocal'].includes(x.trim()) || !!parseCidr(x.trim())),
      'use um número de saltos (1) ou endereços/faixas CIDR separados por vírgula',
    )
    .optional(),
  SMTP_FROM: z.string().optional(),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface AtendeConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  captcha: boolean;
  adminEmail?: string;
  adminPassword?: string;
  role: 'all' | 'api' | 'worker';
  logLevel: RawConfig['ATENDE_LOG_LEVEL'];
  corsOrigin?: string;
  publicUrl?: string;
  shutdownTimeoutMs: number;
  metricsToken?: string;
  smtpUrl?: string;
  smtpFrom?: string;
  /** Who may read the API's OpenAPI document at `/api/docs`: logged-in users (default), anyone, or nobody. */
  apiDocs: 'login' | 'open' | 'off';
  /** General API rate limits, requests per minute (0 = off): per tenant and address, and per address without a session. */
  rateLimitTenant: number;
  rateLimitIp: number;
  /** Socket caps per session and per user, per node (X1-17). */
  wsMaxPerSession: number;
  wsMaxPerUser: number;
  /**
   * Every answer is checked against its route's response schema before it leaves;
   * with `strictResponses` (the test kit sets it) a mismatch is a 500 so tests
   * catch the drift, otherwise it is logged and the answer sent as the handler built it.
   */
  strictResponses?: boolean;
  /** Extra destinations the outbound guard lets through (ATENDE_OUTBOUND_ALLOW); the superadmin adds more at run time. */
  outboundAllow: string[];
  /** Fastify's `trustProxy`: false (default), a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  /** Workspace root: where plugins/ and ui-plugins/ live. */
  rootDir: string;
  /** Prefix for Redis keys and job queues, so several installs (or test workers) share one Redis. */
  namespace: string;
  /** Which plugin ids to load; undefined = every plugin found under plugins/. */
  plugins?: string[];
  /** Long-lived channel session lease timing (defaults: 20 s lease renewed every 5 s); tests shorten it. */
  channelSessions?: { leaseMs?: number; renewMs?: number };
}

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Configuração inválida:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const ROOT_DIR = path.resolve(import.meta.dirname, '..', '..');

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<AtendeConfig> = {}): AtendeConfig {
  // Empty strings mean "unset" (a common result of `FOO= npm start`).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const c = parsed.data;
  const rootDir = overrides.rootDir ?? ROOT_DIR;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(rootDir, c.ATENDE_DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    captcha: c.ATENDE_CAPTCHA === 'on',
    adminEmail: c.ATENDE_ADMIN_EMAIL,
    adminPassword: c.ATENDE_ADMIN_PASSWORD,
    role: c.ATENDE_ROLE,
    logLevel: c.ATENDE_LOG_LEVEL,
    corsOrigin: c.ATENDE_CORS_ORIGIN,
    publicUrl: c.ATENDE_PUBLIC_URL,
    shutdownTimeoutMs: c.ATENDE_SHUTDOWN_TIMEOUT_MS,
    metricsToken: c.ATENDE_METRICS_TOKEN,
    smtpUrl: c.SMTP_URL,
    smtpFrom: c.SMTP_FROM,
    apiDocs: c.ATENDE_API_DOCS,
    rateLimitTenant: c.ATENDE_RATE_LIMIT_TENANT,
    rateLimitIp: c.ATENDE_RATE_LIMIT_IP,
    wsMaxPerSession: c.ATENDE_WS_MAX_PER_SESSION,
    wsMaxPerUser: c.ATENDE_WS_MAX_PER_USER,
    outboundAllow: (c.ATENDE_OUTBOUND_ALLOW ?? '').split(',').map((x) => x.trim()).filter(Boolean),
    trustProxy: !c.TRUST_PROXY ? false : /^\d+$/.test(c.TRUST_PROXY) ? Number(c.TRUST_PROXY) : c.TRUST_PROXY.split(',').map((x) => x.trim()).filter(Boolean),
    rootDir,
    namespace: c.ATENDE_NAMESPACE,
    ...overrides,
  };
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AtendeConfig } from '../config.ts';
import type { Readable } from 'node:stream';
import type { ChannelAdapter, ChannelRecord, ChannelRuntime, InboundMessage, IngestResult } from './channel.ts';

/** Profiles of spec section 1. */
export type Profile = 'user' | 'super' | 'admin' | 'superadmin';

/** What the kernel knows about the caller of a request, taken from the verified token only. */
export interface Principal {
  userId: number;
  tenantId: number;
  profile: Profile;
  email: string;
  name: string;
  /** Set when the request authenticated with a tenant API token instead of a user session. */
  apiToken?: boolean;
}

/** A schema-described migration: plain SQL statements, applied once, in order, inside a transaction. */
export interface MigrationDef {
  /** Unique within its module, sortable (e.g. `0001_init`). */
  name: string;
  up: string[];
}

export type PluginKind = 'channel' | 'integration' | 'feature' | 'report' | 'admin';

export interface MenuDef {
  /** Menu key used by the access map (`GET /api/me/access`) and route guards. */
  key: string;
  /** i18n key of the label in the shell catalogues. */
  label: string;
  /** Hash route path (e.g. `/motivos`). */
  route: string;
  /** Profiles that see the menu (superadmin always bypasses). */
  profiles: Profile[];
  /** Name of the per-tenant menu flag that can hide it, if any (spec §6 tenant menus). */
  tenantMenu?: string;
  /** Name of the per-user visible-menu toggle that can hide it, if any. */
  userMenu?: string;
}

/** Events carried by the bus and the real-time channel. Names are `<aggregate>.<past-tense>`. */
export interface EventEnvelope<T = unknown> {
  tenantId: number;
  event: string;
  data: T;
  /** Rooms that receive it: `tenant`, `queue:<id>`, `user:<id>`, `ticket:<id>`; default the tenant room. */
  rooms?: string[];
}

export interface DeliveredEvent<T = unknown> extends EventEnvelope<T> {
  seq: number;
  epoch: string;
  at: number;
}

export interface EventBusPort {
  /** Publishes now (callers holding a transaction use `ctx.events.afterCommit`). Resolves once sequenced and fanned out. */
  publish<T>(e: EventEnvelope<T>): Promise<DeliveredEvent<T>>;
  /** Subscribes to every event of this install (all nodes). Returns an unsubscribe function. */
  subscribe(handler: (e: DeliveredEvent) => void): () => void;
  /** Events of a tenant with seq > since, or `resync` if they are no longer retained or the epoch changed. */
  since(tenantId: number, epoch: string | undefined, since: number): Promise<{ epoch: string; events: DeliveredEvent[] } | { resync: true; epoch: string; seq: number }>;
  health(): Promise<boolean>;
  close(): Promise<void>;
}

export interface JobOptions {
  /** Idempotency key: a second enqueue with the same key while the first exists is a no-op. */
  jobId?: string;
  delayMs?: number;
  attempts?: number;
  backoffMs?: number;
  priority?: number;
}

export interface JobDefinitionOptions {
  concurrency?: number;
  rateLimit?: { max: number; durationMs: number };
}

export interface JobContext {
  id: string;
  attempt: number;
  progress(p: number | Record<string, unknown>): Promise<void>;
  logger: Logger;
}

export type JobHandler<T = unknown> = (data: T, job: JobContext) => Promise<unknown>;

export interface JobsPort {
  define<T>(name: string, handler: JobHandler<T>, opts?: JobDefinitionOptions): void;
  enqueue<T>(name: string, data: T, opts?: JobOptions): Promise<string>;
  /** Repeatable job (cron pattern or every N ms), idempotent by `key`. */
  schedule<T>(name: string, key: string, repeat: { pattern?: string; everyMs?: number; tz?: string }, data: T): Promise<void>;
  counts(name: string): Promise<Record<string, number>>;
  health(): Promise<boolean>;
}

export interface RealtimePort {
  /** Sequences and delivers an event to rooms of a tenant, after applying per-recipient visibility. */
  emit<T>(tenantId: number, event: string, data: T, rooms?: string[]): Promise<void>;
  /** Registers a per-recipient filter for an event name (e.g. ticket visibility). */
  addVisibilityFilter(
    event: string,
    filter: (recipient: Principal & { queues: number[] }, data: any) => boolean | Promise<boolean>,
    onReject?: (data: any) => { event: string; data: unknown } | undefined,
  ): void;
}

export interface SettingsPort {
  get<T = string>(tenantId: number, key: string): Promise<T | undefined>;
  set(tenantId: number, key: string, value: unknown): Promise<void>;
}

export interface PluginEventsPort {
  publish<T>(tenantId: number, event: string, data: T, rooms?: string[]): Promise<void>;
  on(event: string, handler: (e: DeliveredEvent) => void | Promise<void>): void;
}

/** Route options every plugin route may add; `menu` ties the route to the access map. */
export interface RouteAccess {
  /** Menu key checked by the access policy; omit for routes any logged-in user may call. */
  menu?: string;
  /** Route needs no login (webhooks; they authenticate themselves). */
  public?: boolean;
  /** Only these profiles may call the route (superadmin always may). */
  profiles?: Profile[];
  /**
   * A tenant API token (`Authorization: Bearer atk_...`) may call the route, acting as an
   * admin of that token's tenant only. Routes without it refuse API tokens (ERR_NO_PERMISSION).
   */
  api?: boolean;
}

export interface PluginContext {
  id: string;
  /** Routes mounted at `/api/plugins/<id>`. */
  http: FastifyInstance;
  /** Routes mounted at `/api`, for the paths the spec fixes (e.g. `/scheduleMessages`). */
  api: FastifyInstance;
  events: PluginEventsPort;
  jobs: JobsPort;
  realtime: RealtimePort;
  settings: SettingsPort;
  logger: Logger;
  config: Readonly<AtendeConfig>;
  /** Raw parameterised SQL for the plugin's own tables (hot paths); always filter by tenant_id yourself. */
  sql<R = any>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
  /** The request-scoped EntityManager (tenant filter on). */
  db(req: FastifyRequest): EntityManager;
  /** A fresh EntityManager for background work, scoped to one tenant. */
  dbForTenant(tenantId: number): EntityManager;
  /** Whether this plugin is enabled for the tenant. */
  isEnabled(tenantId: number): Promise<boolean>;
  /** Reads this plugin's per-tenant settings, parsed by its `tenantSettings` schema. */
  tenantSettings<T = Record<string, unknown>>(tenantId: number): Promise<T>;
  channels: ChannelRegistry;
  messages: MessagesPort;
  /** The kernel's media store (e.g. media a channel downloads from its provider). */
  storage: MediaStoragePort;
  hooks: { afterInbound: { add(fn: (e: AfterInboundEvent) => Promise<void> | void): void } };
}

export interface AfterInboundEvent {
  tenantId: number;
  ticketId: number;
  contactId: number;
  created: boolean;
  fromMe: boolean;
  ratingClosed?: boolean;
  message: { id: string; body: string; type: string };
  /** The ticket as it stood after the message was stored, so hooks need not read it again. */
  ticket?: { channelId: number | null; status: string; userId: number | null; chatflowId: number | null };
}

/** Registry of channel adapters plus the kernel's channel operations. */
export interface ChannelRegistry {
  register(adapter: ChannelAdapter): void;
  get(type: string): ChannelAdapter | undefined;
  list(): ChannelAdapter[];
  /** Loads a channel row (with secrets) for server-side use, e.g. to verify a webhook. */
  find(channelId: number): Promise<ChannelRecord | undefined>;
  setStatus: ChannelRuntime['setStatus'];
  runtime: ChannelRuntime;
  /** Which long-lived sessions this node runs (see `ChannelAdapter.longLived`). */
  sessions: ChannelSessionsPort;
  /**
   * Auth state of a channel's provider session (keys, tokens, sync cursors) as
   * JSON values in PostgreSQL, never on local disk, so the session can resume
   * on another node. Writes are refused while another node holds the lease.
   */
  authState(channelId: number): ChannelAuthState;
}

export interface ChannelSessionsPort {
  /** This node's id in the lease table. */
  readonly nodeId: string;
  /** Whether this node holds the channel's session lease right now. */
  owns(channelId: number): boolean;
}

export interface ChannelAuthState {
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores a JSON value; throws if another live node owns the channel's session. */
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  keys(): Promise<string[]>;
  /** Forgets everything (logout). */
  clear(): Promise<void>;
}

export interface StoredMediaFile {
  /** Signed URL the screens use (`/media/...`). */
  url: string;
  /** Absolute path on the local store. */
  path: string;
  name: string;
  mimetype: string;
  size: number;
}

export interface MediaStoragePort {
  /** Streams a file in with the kernel's type and size checks (ERR_FILE_REJECTED, ERR_FILE_TOO_LARGE). */
  save(tenantId: number, name: string, mimetype: string, stream: Readable): Promise<StoredMediaFile>;
}

/** The kernel's message pipeline, for channel plugins. */
export interface MessagesPort {
  ingest(msg: InboundMessage): Promise<IngestResult>;
  ack: ChannelRuntime['ack'];
}

export interface PluginDefinition {
  id: string;
  kind: PluginKind;
  /** Other plugin ids that must load first. */
  dependsOn?: string[];
  /** Human name shown in the admin screens. */
  name?: string;
  description?: string;
  /** Entities of this plugin (tables prefixed with the plugin id). */
  entities?: EntitySchema<any, any>[];
  migrations?: MigrationDef[];
  /** Per-tenant settings schema. */
  tenantSettings?: z.ZodType<Record<string, unknown>>;
  menus?: MenuDef[];
  /** Whether a tenant without an explicit choice has the plugin enabled. Default true. */
  enabledByDefault?: boolean;
  /** Has a federated UI remote in `ui-plugins/<id>`. */
  ui?: boolean;
  register(ctx: PluginContext): void | Promise<void>;
}

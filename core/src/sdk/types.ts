import type { FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AtendeConfig } from '../config.ts';
import type { Readable } from 'node:stream';
import type { ChannelAdapter, ChannelRecord, ChannelRuntime, InboundMessage, IngestResult } from './channel.ts';
import type { AtendeEvents, AtendeExtensionPoints, Contract } from './contract.ts';
import type { PluginHttp, SqlQuery } from './http.ts';
import type { OutboundPort } from '../net/outbound.ts';

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

/** Domain events, typed by the install's `AtendeEvents` map (the kernel's and each plugin contract's). */
export interface PluginEventsPort {
  /** Publishes to the tenant's rooms (default the whole tenant) after sequencing; every node and browser in those rooms receives it. */
  publish<K extends keyof AtendeEvents & string>(tenantId: number, event: K, data: AtendeEvents[K], rooms?: string[]): Promise<void>;
  on<K extends keyof AtendeEvents & string>(event: K, handler: (e: DeliveredEvent<AtendeEvents[K]>) => void | Promise<void>): void;
}

/** Node-to-node messages (not domain events: no seq, no replay, never sent to browsers); topics are the plugin's own. */
export interface PluginClusterPort {
  /** This node's id. */
  readonly nodeId: string;
  broadcast(topic: string, data: unknown): Promise<void>;
  on(topic: string, handler: (data: unknown, from: string) => void | Promise<void>): void;
  /** Answers requests on a topic; return `undefined` when this node is not the one asked for. */
  handle(topic: string, handler: (data: unknown) => Promise<unknown> | unknown): void;
  /** First answer of any node (this one first); rejects with the answering node's error or after `timeoutMs`. */
  request(topic: string, data: unknown, opts: { timeoutMs: number }): Promise<unknown>;
}

/**
 * Typed extension points (`AtendeExtensionPoints`): a plugin offers a registry
 * by declaring a point in its contract; others contribute to it; neither
 * imports the other.
 */
export interface PluginExtensionsPort {
  contribute<K extends keyof AtendeExtensionPoints & string>(point: K, value: AtendeExtensionPoints[K]): void;
  /** Every contribution to a point, with the contributing plugin, in mount order. Read when needed (contributors may mount after the offering plugin). */
  list<K extends keyof AtendeExtensionPoints & string>(point: K): { pluginId: string; value: AtendeExtensionPoints[K] }[];
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
  /** Routes mounted at `/api/plugins/<id>`, typed by their zod schemas. */
  http: PluginHttp;
  /** Routes mounted at `/api`, for the paths the spec fixes (e.g. `/scheduleMessages`). */
  api: PluginHttp;
  events: PluginEventsPort;
  cluster: PluginClusterPort;
  extensions: PluginExtensionsPort;
  /** Runs a statement built with the SDK's `sql` tag (hot paths only; the plugin's own tables or the kernel's read views). */
  query<R = Record<string, unknown>>(q: SqlQuery): Promise<R[]>;
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
  /** Scheduled messages, notices to contacts, birthdays and ratings (the agent-tool plugins). */
  agentTools: AgentToolsPort;
  /** Paced bulk sends through a channel (campaigns, mass sends, birthdays); batches are this plugin's own. */
  bulkSend: BulkSendPort;
  /** The kernel's contact changes a plugin may make (wallets, tags, plugin fields); each publishes `contact.updated`. */
  contacts: ContactsPort;
  /** Read services for kernel data (the stable surface; for joins at volume, the `v_*` views of docs/architecture.md). */
  users: UsersReadPort;
  tenants: TenantsReadPort;
  queues: QueuesReadPort;
  tickets: TicketsReadPort;
  templates: TemplatesPort;
  /** Fields this plugin adds to kernel records (a contact's `kanban` lane): docs/plugin-authoring.md "Fields on kernel records". */
  records: RecordsPort;
  /**
   * The guarded client for every destination a tenant can influence (base URLs, media URLs a
   * provider hands out, webhooks, SMTP): private, loopback and link-local addresses are refused
   * unless the superadmin allowed them (docs/security.md). Never call `fetch` or open sockets to
   * such destinations directly.
   */
  outbound: OutboundPort;
  /**
   * What one recipient of a real-time event may see, for visibility filters
   * (`realtime.addVisibilityFilter`) of events published to the whole tenant: a plugin event about a
   * ticket or a screen reaches only those who may open that ticket or use that menu.
   */
  visibility: VisibilityPort;
}

/** Checks for a real-time recipient (or a request's principal), with the kernel's own rules. */
export interface VisibilityPort {
  /** Whether they may use the menu (profile, tenant and user menu flags, blocked tenant), as the route guards decide. */
  mayUseMenu(who: Principal, menuKey: string): boolean;
  /** Whether they may open the ticket (queues, assignment, the tenant's visibility settings); false for another tenant's or an unknown one. */
  maySeeTicket(who: Principal & { queues: number[] }, ticketId: number): Promise<boolean>;
}

/** Template variables (`{{name}}`, `{{greeting}}`, `{{protocol}}`…, core.md §3): one renderer for every sender. */
export interface TemplatesPort {
  /**
   * Fills the variables for a ticket (contact, protocol, assigned or sending user) or a contact alone.
   * `birthday: true` leaves protocol, kanban and user empty, as the spec says for birthday messages.
   */
  render(tenantId: number, template: string, target: { ticketId?: number | null; contactId?: number | null; userId?: number | null; birthday?: boolean; now?: Date }): Promise<string>;
  /**
   * Supplies a variable whose value lives in the plugin's tables (the kanban plugin names the contact's lane for
   * `{{kanban}}`). The name must be new to the install (not the kernel's nor another plugin's: boot stops otherwise);
   * while the plugin is off for a tenant the variable renders empty there.
   */
  provide(variable: string, provider: (facts: TemplateFacts) => Promise<string | null | undefined> | string | null | undefined): void;
}

/** What a template variable's provider gets to work out its value. */
export interface TemplateFacts {
  tenantId: number;
  /** The contact the message goes to (the ticket's, or the one rendered for). */
  contactId: number | null;
  ticketId: number | null;
  /** The user who sends, or the ticket's agent. */
  userId: number | null;
  /** A birthday message: the spec leaves protocol, kanban and user empty there (core.md §3). */
  birthday: boolean;
}

/** Kernel records a plugin can add fields to. For `tenant` records the record id is the tenant id. */
export type RecordKind = 'contact' | 'ticket' | 'channel' | 'tenant';

/**
 * A plugin's fields on one kind of kernel record, stored in the plugin's own
 * tables. The kernel calls `load` wherever it serialises that kind of record
 * (once per page or event, with every id of it), and `check` then `save` when a
 * kernel route receives the fields (`PUT /api/contacts/:id {kanban}`): `check`
 * before the kernel writes, `save` after it stored its own part.
 */
export interface RecordExtension<F extends string = string> {
  /** The fields, as the API names them (camelCase); each belongs to one plugin per kind. */
  fields: readonly F[];
  /** Values by record id for those of `ids` that have any (a missing id or field answers `null`). */
  load(tenantId: number, ids: number[]): Promise<Map<number, Partial<Record<F, unknown>>>>;
  /**
   * Optional, for hot paths that serialise records of many tenants at once (the events of an
   * ingest batch): the same as `load` for every pair in one query instead of one per tenant.
   * Record ids are unique across tenants; match each id with its tenant all the same.
   */
  loadAcross?(keys: { tenantId: number; id: number }[]): Promise<Map<number, Partial<Record<F, unknown>>>>;
  /**
   * Refuses values a client may not store (throw an `AppError`), before the kernel writes anything:
   * bad input changes nothing. Called with the fields present, and the record's id unless it is a new one.
   */
  check?(tenantId: number, values: Partial<Record<F, unknown>>, id?: number): Promise<void>;
  /** Stores the values a client sent for one record (only the fields present, already checked); omit when the fields are read-only. */
  save?(tenantId: number, id: number, values: Partial<Record<F, unknown>>): Promise<void>;
}

export interface RecordsPort {
  /** Declares fields on a kind of kernel record; call it in `register`. A field already claimed stops boot. */
  extend<F extends string>(kind: RecordKind, ext: RecordExtension<F>): void;
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
  ticket?: { channelId: number | null; status: string; userId: number | null; chatflowId: number | null; ratingRequested?: boolean };
}

/** Registry of channel adapters plus the kernel's channel operations. */
export interface ChannelRegistry {
  register(adapter: ChannelAdapter): void;
  get(type: string): ChannelAdapter | undefined;
  list(): ChannelAdapter[];
  /**
   * Loads a channel row (with secrets) for server-side use, e.g. to verify a webhook.
   * `maxAgeMs`: a copy this node read at most that long ago will do — for webhooks, so a
   * provider's burst costs no database round trip per message; an edit made within that
   * time may not be seen yet, so use it only where that is harmless.
   */
  find(channelId: number, opts?: { maxAgeMs?: number }): Promise<ChannelRecord | undefined>;
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

/** Who changes a contact: the kernel applies its own rules for that profile (e.g. wallets of a contact in service). */
export interface ContactActor {
  tenantId: number;
  userId: number;
  profile: Profile;
}

/** A contact as the kernel serialises it (`GET /api/contacts/:id`). */
export interface ContactSummary {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  profilePicUrl: string | null;
  isGroup: boolean;
  tags: { id: number; name: string; color: string }[];
  wallets: { id: number; name: string }[];
  updatedAt: string;
}

/** A user as plugins read them (`ctx.users`): never the password hash or tokens. */
export interface UserSummary {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  active: boolean;
  isOnline: boolean;
}

export interface UsersReadPort {
  /** The tenant's users by name; `ids` limits to those (unknown or other tenants' ids are left out), `activeOnly` drops disabled users. */
  list(tenantId: number, opts?: { ids?: number[]; activeOnly?: boolean }): Promise<UserSummary[]>;
  get(tenantId: number, id: number): Promise<UserSummary | undefined>;
}

export interface TenantSummary {
  id: number;
  name: string;
  status: string;
  blocked: boolean;
}

/** Tenants (platform features: notifications to tenants, the superadmin's screens). */
export interface TenantsReadPort {
  list(opts?: { ids?: number[] }): Promise<TenantSummary[]>;
  get(id: number): Promise<TenantSummary | undefined>;
}

export interface QueueSummary {
  id: number;
  name: string;
  color: string | null;
}

export interface QueuesReadPort {
  list(tenantId: number): Promise<QueueSummary[]>;
}

/** A ticket as plugins look it up (`ctx.tickets`). */
export interface TicketSummary {
  id: number;
  contactId: number;
  contactName: string;
  channelId: number | null;
  queueId: number | null;
  userId: number | null;
  status: string;
  protocol: string | null;
  createdAt: string;
  closedAt: string | null;
}

export interface TicketsReadPort {
  get(tenantId: number, id: number): Promise<TicketSummary | undefined>;
  byProtocol(tenantId: number, protocol: string): Promise<TicketSummary | undefined>;
}

export interface ContactsPort {
  get(tenantId: number, id: number): Promise<ContactSummary | undefined>;
  /** The contacts of these ids that belong to the tenant, by id. */
  list(tenantId: number, ids: number[]): Promise<ContactSummary[]>;
  /**
   * Changes some fields of one contact of the actor's tenant, with the same
   * checks as `PUT /api/contacts/:id` (unknown contact → ERR_NO_CONTACT_FOUND,
   * another tenant's tag or user → not found), and publishes `contact.updated`.
   * `fields` are plugin fields on the contact (`ctx.records.extend('contact')`),
   * handed to their owner's `save` as given: the owning plugin validates them.
   */
  update(actor: ContactActor, contactId: number, patch: { wallets?: number[]; tags?: number[]; fields?: Record<string, unknown> }): Promise<ContactSummary>;
}

/** The kernel's message pipeline, for channel plugins. */
export interface MessagesPort {
  ingest(msg: InboundMessage): Promise<IngestResult>;
  ack: ChannelRuntime['ack'];
}

export interface PluginDefinition {
  id: string;
  kind: PluginKind;
  /** The plugin's `contract.ts`: its errors join the catalogue at mount (a code claimed twice stops boot). */
  contract?: Contract<any, any>;
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

/** Pacing of a bulk send, per channel (one sending number): a random gap between `minSeconds` and `maxSeconds`, or a fixed rate. */
export type BulkPacing = { minSeconds: number; maxSeconds: number } | { perSecond: number };

export interface BulkRecipientInput {
  /** The address on the channel (a phone number with country code, a Telegram chat id…). Repeats in one batch are sent once. */
  to: string;
  name?: string;
  /** This recipient's own text (already rendered); otherwise the batch's message body. */
  body?: string;
}

export interface BulkSendInput {
  tenantId: number;
  channelId: number;
  recipients: BulkRecipientInput[];
  /** The text (and optional stored media) every recipient without its own body gets. */
  message?: { body: string; media?: { url: string; name: string; mimetype: string } };
  pacing: BulkPacing;
  /** The caller's own id for the batch (a campaign id), returned in status and events. */
  reference?: string;
  /** Real-time rooms that get `bulk.progress` / `bulk.finished` (default `tenant`). */
  rooms?: string[];
  userId?: number | null;
}

export type BulkRecipientState = 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';

export interface BulkBatchStatus {
  id: string;
  tenantId: number;
  channelId: number;
  reference: string | null;
  status: 'running' | 'cancelled' | 'done';
  total: number;
  pending: number;
  sent: number;
  failed: number;
  cancelled: number;
  createdAt: string;
  finishedAt: string | null;
}

export interface BulkRecipientStatus {
  id: string;
  to: string;
  name: string | null;
  state: BulkRecipientState;
  attempts: number;
  providerId: string | null;
  error: string | null;
  finishedAt: string | null;
}

/**
 * The kernel's paced bulk send (campaigns, mass sends, birthdays). `start`
 * stores the batch and one ledger row per recipient before any provider
 * call, then workers send through the channel adapter with the idempotency
 * key `bulk-<batch>-<recipient row>`, one number at a time at the batch's
 * pace. It resumes by itself after a crash; each recipient ends `sent`,
 * `failed` or `cancelled`. Progress arrives in real time as `bulk.progress`.
 */
export interface BulkSendPort {
  /** Refuses an unknown channel (ERR_NO_WAPP_FOUND), no recipients or a bad pacing (ERR_VALIDATION). */
  start(input: BulkSendInput): Promise<BulkBatchStatus>;
  status(tenantId: number, batchId: string): Promise<BulkBatchStatus | undefined>;
  recipients(tenantId: number, batchId: string, opts?: { state?: BulkRecipientState; afterId?: string; limit?: number }): Promise<BulkRecipientStatus[]>;
  /** Stops a running batch: recipients not yet handed to the provider end `cancelled`. False if it was not running. */
  cancel(tenantId: number, batchId: string): Promise<boolean>;
}

/** A scheduled message as the agent tools list it (core.md §3 "Scheduled message"). */
export interface ScheduledMessage {
  id: string;
  ticketId: number;
  contactId: number;
  contactName: string;
  contactNumber: string | null;
  channelId: number | null;
  channelName: string | null;
  userId: number | null;
  userName: string | null;
  body: string;
  mediaName: string | null;
  /** ISO instant. */
  scheduleDate: string;
  /** Days between occurrences, or null for none. */
  recurrence: number | null;
  /** Occurrences left, this one included (default 1). */
  repetitions: number;
  /** scheduled (waiting), sending (due, handed to the send job), sent, failed. */
  state: 'scheduled' | 'sending' | 'sent' | 'failed';
  failureReason: string | null;
  createdAt: string;
}

export interface ScheduledFilter {
  /** `sent` includes those being sent. */
  state?: 'scheduled' | 'sent' | 'failed';
  from?: Date;
  to?: Date;
  contactId?: number;
  ticketId?: number;
  /** Contact name, number or message text. */
  search?: string;
  limit?: number;
  offset?: number;
}

export interface BirthdayContact {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  /** yyyy-MM-dd */
  birthday: string;
  /** yyyy-MM-dd, in the tenant's time zone (a 29 February birthday falls on 28 February in other years). */
  nextBirthday: string;
  /** 0 = today. */
  daysUntil: number;
  /** Age on the next birthday. */
  age: number;
  /** Channel of the contact's latest ticket, if any. */
  channelId: number | null;
}

export interface RatingFilter {
  from?: Date;
  to?: Date;
  userId?: number;
  queueId?: number;
  score?: number;
  /** Contact name or protocol. */
  search?: string;
  limit?: number;
  offset?: number;
}

/**
 * Kernel services for the agent-tool plugins (schedules, birthdays, ratings):
 * they work on tickets, contacts and messages, which plugins never touch directly.
 */
export interface AgentToolsPort {
  listScheduled(tenantId: number, filter: ScheduledFilter): Promise<{ rows: ScheduledMessage[]; count: number }>;
  getScheduled(tenantId: number, id: string): Promise<ScheduledMessage | undefined>;
  /**
   * Schedules a message to a contact: it goes into the contact's active ticket on the channel (else its latest,
   * else a new ticket in status `schedule`) and the kernel's dispatcher sends it when due.
   * ERR_NO_CONTACT_FOUND, ERR_NO_WAPP_FOUND, ERR_NO_DEF_WAPP_FOUND, ERR_INVALID_DATE (in the past).
   */
  schedule(
    actor: { tenantId: number; userId: number },
    input: { contactId: number; channelId?: number | null; body: string; scheduleDate: Date; recurrence?: number | null; repetitions?: number; media?: { url: string; name: string; mimetype: string } },
  ): Promise<ScheduledMessage>;
  /** Changes a message still waiting; ERR_SCHEDULE_NOT_PENDING once it went out, ERR_NOT_FOUND if unknown. */
  updateScheduled(tenantId: number, id: string, patch: { body?: string; scheduleDate?: Date; recurrence?: number | null; repetitions?: number }): Promise<ScheduledMessage>;
  /** Removes a message still waiting (it leaves the ticket's scheduled list); same refusals as `updateScheduled`. */
  cancelScheduled(tenantId: number, id: string): Promise<void>;
  /** Sends now to a contact outside any attendance (notices): active ticket, else latest, else a new closed one. */
  sendToContact(
    tenantId: number,
    input: { contactId: number; channelId?: number | null; body: string; media?: { url: string; name: string; mimetype: string }; userId?: number | null; data?: Record<string, unknown> },
  ): Promise<{ messageId: string; ticketId: number; channelId: number }>;
  /** Contacts whose birthday falls within `days` days from today in the tenant's time zone (0 = today only). */
  birthdays(tenantId: number, q: { days: number; contactIds?: number[] }): Promise<BirthdayContact[]>;
  /** Active tenants and their time zones (for jobs that run at a local hour). */
  tenantClocks(): Promise<{ tenantId: number; timeZone: string }[]>;
  /** Each channel's birthday message, whole hour and attachment (administration.md §3). */
  birthdayChannels(tenantId: number): Promise<{ id: number; name: string; isDefault: boolean; message: string | null; hour: number | null; media: { url: string; name: string; mimetype: string } | null }[]>;
  /** Rated tickets with their averages, by the filters of the ratings list. */
  ratings(tenantId: number, filter: RatingFilter): Promise<{
    rows: { ticketId: number; protocol: string | null; value: number; attempts: number; ratedAt: string; userId: number | null; userName: string | null; queueId: number | null; queueName: string | null; contactId: number; contactName: string }[];
    count: number;
    average: number | null;
    /** Count per score 0..5. */
    distribution: number[];
    byUser: { userId: number | null; userName: string | null; count: number; average: number }[];
  }>;
}

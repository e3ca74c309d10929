import i18next from 'i18next';
import { atom } from 'jotai';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorDefinition } from '@atende/core/contract';

/**
 * Zones of the shell where remotes can mount widgets, with the props each
 * zone passes. Adding a zone is a change of this contract.
 */
export interface WidgetZoneProps {
  /** Right-hand contact panel of the ticket screen (sections under the contact's fields). */
  'ticket.sidebar': { ticketId: number; contactId?: number };
  /** Action area of the ticket header. */
  'ticket.header': { ticketId: number };
  /** The tool row under the ticket composer (beside emoji, attachments and audio). */
  'ticket.composer': { ticketId: number; disabled?: boolean };
  /** Sections at the end of the contact drawer (`/contatos`), for an existing contact. */
  'contact.drawer': { contactId: number };
  /** Cards on the dashboard (`/home`). */
  'dashboard.cards': Record<string, never>;
  /** Extra items in the main layout header. */
  'layout.header': Record<string, never>;
}

/** The kernel tabs of the channel dialog (`/sessoes`). */
export type ChannelDialogTab = 'general' | 'connection' | 'automation' | 'messages';

/**
 * A plugin's fields inside the channel dialog (`/sessoes`), for any channel
 * type. The shell renders the sections of every remote loaded for the
 * tenant (a disabled plugin's remote is not loaded, so its fields are gone),
 * ordered by `order`: inside a kernel tab as a titled panel at its end when
 * `tab` is given, otherwise as a tab of its own. The section owns its
 * fields' state and hands the dialog what to save through `register`.
 */
export interface ChannelDialogSection {
  /** Title of the panel or tab (i18n key in the remote's namespace, then the shell's). */
  label: string;
  /** Position among the dialog's plugin sections. */
  order: number;
  /** The kernel tab the section joins; without it the section is a tab of its own. */
  tab?: ChannelDialogTab;
  component: ComponentType<ChannelDialogSectionProps>;
}

/**
 * The saved channel as `GET /api/channels` answers it: the provider's fields
 * plus every kernel field by name (`farewellMessage`, `birthdayHour`…), which
 * a section reads (and narrows, e.g. with its contract's schema) as its part.
 */
export interface ChannelDialogChannel extends ChannelFormChannel {
  [field: string]: unknown;
}

/** What a section hands the dialog for its save. */
export interface ChannelDialogContribution {
  /**
   * Kernel channel fields this section edits, merged into the body of the
   * dialog's own `POST|PUT /api/channels` (the server validates them with the
   * rest). Leave out what the admin did not touch to keep it as saved.
   * Throwing an `Error` refuses the save: its message shows above the section,
   * its tab marked, and nothing is sent.
   */
  values?(): Record<string, unknown>;
  /**
   * Runs after the channel is saved, with the server's answer, for what has
   * routes of its own (an upload…). Throwing shows the error: an edit stays
   * open to retry; a new channel is already created, so the dialog closes and
   * the error shows as a notification.
   */
  afterSave?(channel: ChannelDialogChannel): Promise<void>;
}

export interface ChannelDialogSectionProps {
  /** The channel being edited; absent while creating. */
  channel?: ChannelDialogChannel;
  /** Channel type (`waba`, `telegram`…), also while creating once the admin picked it (else `null`). */
  channelType: string | null;
  /**
   * Hands the dialog this section's contribution; the latest call wins, so
   * call it from an effect without deps (it runs after every render) and the
   * closures read the section's current state.
   */
  register(contribution: ChannelDialogContribution): void;
  /** True while the dialog saves. */
  disabled?: boolean;
}

/** The rail's groups (core.md §6 menus, in the spec's order). */
export type MenuSection = 'service' | 'outreach' | 'management' | 'admin' | 'platform';

/** A rail entry a remote adds for one of its screens; shown only while that screen is loaded and the access map allows its key. */
export interface UiMenuEntry {
  /** Menu key of the access map (`GET /api/me/access` → `menus`), declared by the server plugin's `menus`. */
  key: string;
  /** i18n key of the label (the remote's namespace first, then the shell's catalogue: `menu.<key>`). */
  label: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  /** Where the entry leads: a route this remote declares. */
  path: string;
  section: MenuSection;
  /** Position in its section; the shell's own entries use multiples of 10 (dashboard 10, tickets 20…). */
  order: number;
}

/** A settings page a remote adds under `/configuracoes`, shown as a tab in one of the spec's groups. */
export interface UiSettingsTab {
  /** Route path under `/configuracoes/` that this remote declares. */
  path: string;
  /** The spec's settings groups (administration.md §2). */
  group: 'general' | 'bots' | 'integrations' | 'crm' | 'sessions';
  label: string;
  order: number;
}
export type WidgetZone = keyof WidgetZoneProps;

/**
 * A screen a remote declares. The shell mounts it at `path` (react-router
 * syntax, absolute: `/campanhas/:campanhaId`): inside the main layout (rail
 * and header) unless `layout: 'standalone'`, and inside a shell layout whose
 * path is its prefix (`/configuracoes/...` gets the settings tabs). A path
 * the shell or another remote already declares is refused loudly.
 */
export interface UiPluginRoute {
  /** Absolute hash route path (e.g. `/configuracoes/motivos`, `/campanhas/:campanhaId`). */
  path: string;
  /** The spec's route name (administration.md §2), unique in the app. */
  name?: string;
  /** Either a ready element… */
  element?: ReactNode;
  /** …or a lazily loaded screen (preferred: keeps the remote's entry tiny). */
  lazy?: () => Promise<{ default: ComponentType }>;
  /** Menu key of the access map guarding the route ('Acesso negado' when hidden). */
  menu?: string;
  /** `standalone`: outside the main layout (full page, like the ticket screen and reports). Default `main`. */
  layout?: 'main' | 'standalone';
  /** The exact path redirects to this child (a parent with tabs, e.g. `/avaliacoes` → `/avaliacoes/listar`). */
  redirect?: string;
  /** Child screens rendered in this route's `<Outlet />` (the parent's screen wraps them). */
  children?: UiPluginRoute[];
}

/** The provider part of a channel as the `/sessoes` form edits it (`config` and write-only `secrets` of `POST|PUT /api/channels`). */
export interface ChannelFormValue {
  number: string | null;
  /** Non-secret provider settings, saved as the channel's `config`. */
  config: Record<string, unknown>;
  /** Only what the admin typed: a value sets, `null` removes, an absent key keeps the saved credential. */
  secrets: Record<string, string | null>;
}

/** The channel as `GET /api/channels/:id` returns it (the fields a provider form needs). */
export interface ChannelFormChannel {
  id: number;
  type: string;
  name: string;
  number: string | null;
  status: string;
  config: Record<string, unknown>;
  /** Names of the credentials already saved (their values never reach the browser). */
  secretsSet: string[];
}

/** Props of a channel plugin's provider fields inside the shell's channel dialog. */
export interface ChannelFormProps {
  /** The saved channel when editing; absent when creating. */
  channel?: ChannelFormChannel;
  value: ChannelFormValue;
  onChange(next: ChannelFormValue): void;
  /** True while the dialog saves. */
  disabled?: boolean;
  /**
   * The server's refusal of one provider field (its answer's `field` and `details`), by the field's key
   * in `config` or `secrets`: the form shows it under that field.
   */
  fieldErrors?: Record<string, string>;
}

/** The live connection state of a channel (pushed by `channel.updated`). */
export interface ChannelConnectState {
  id: number;
  type: string;
  name: string;
  number: string | null;
  status: string;
  qrcode: string | null;
  pairingCode: string | null;
  retries: number;
  lastError: string | null;
}

/** Props of a channel plugin's connect panel (QR code, pairing code, provider hints). */
export interface ChannelConnectProps {
  channel: ChannelConnectState;
}

/** The ticket as a channel's composer extension sees it (the fields of `GET /api/tickets/:id` it may need). */
export interface ComposerTicket {
  id: number;
  status: string;
  channelId: number | null;
  /** The channel's adapter type (`waba`, `telegram`…). */
  channel: string | null;
  contactName: string | null;
}

/** A provider message template as `POST /api/messages/:ticketId` takes it (`template`): one value per placeholder of each component. */
export interface ComposerTemplate {
  name: string;
  language: string;
  components?: { type: 'header' | 'body' | 'button'; index?: number; subType?: 'url' | 'quick_reply' | 'copy_code'; parameters: string[] }[];
}

/** What an extension sends: a text, or a template (the server stores the template's own text). */
export type ComposerSendPayload = { body: string; template?: undefined } | { template: ComposerTemplate; body?: undefined };

/** Props of a channel's composer extensions, rendered on the ticket screen for tickets of that channel type. */
export interface ComposerExtensionProps {
  ticket: ComposerTicket;
  /**
   * When the customer last wrote in this ticket (ISO date of the newest
   * message from them): `null` when none of its messages is theirs, and
   * `undefined` when older messages are not loaded yet and none of the
   * loaded ones is theirs (unknown).
   */
  lastCustomerMessageAt: string | null | undefined;
  /**
   * Sends one message on the ticket through the shell (it shows in the
   * conversation and follows its acks like any other). Rejects with the
   * server's error, already translated by `errorMessage`.
   */
  send(payload: ComposerSendPayload): Promise<void>;
}

/** What a channel plugin's remote adds to `/sessoes` and the ticket screen for its adapter type. */
export interface UiChannelType {
  /** The adapter type its server plugin registers (`GET /api/channels/types`). */
  type: string;
  /** Provider fields shown in the channel dialog; without it the dialog has only the kernel's fields. */
  form?: ComponentType<ChannelFormProps>;
  /** Replaces the shell's default connect panel (QR code or pairing code) for this type. */
  connect?: ComponentType<ChannelConnectProps>;
  /** A button (or small group of them) in the composer's tool row, e.g. WhatsApp's message templates. */
  composerAction?: ComponentType<ComposerExtensionProps>;
  /** A strip above the composer for what the agent must know before typing (e.g. a closed 24-hour window); renders nothing when there is nothing to say. */
  composerNotice?: ComponentType<ComposerExtensionProps>;
}

/** What a remote default-exports. */
export interface UiPluginDefinition {
  /** Same id as the server plugin (`plugins/<id>`), kebab-case. */
  id: string;
  /** The server plugin's contract (`@atende/plugin-<id>/contract`): its error codes get their texts in every language. */
  contract?: { id: string; errors: Record<string, ErrorDefinition> };
  routes: UiPluginRoute[];
  /** Rail entries for this remote's screens. */
  menus?: UiMenuEntry[];
  /** Tabs this remote adds to `/configuracoes`. */
  settingsTabs?: UiSettingsTab[];
  /** Sections (panels in a kernel tab, or tabs) this remote adds to the channel dialog on `/sessoes`, for every channel type. */
  channelDialog?: ChannelDialogSection[];
  widgets?: { [Z in WidgetZone]?: ComponentType<WidgetZoneProps[Z]> };
  /** Channel types this remote fills in on `/sessoes` (channel plugins). */
  channels?: UiChannelType[];
  /**
   * The remote's own strings by language (`pt`, `en`, `es`, …), registered
   * as the i18next namespace `<id>`; read them with `usePluginTranslation(id)`.
   */
  locales?: Partial<Record<string, Record<string, string>>>;
}

const ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Declares a UI plugin. Validates the definition at load time so a malformed
 * remote fails loudly in its own error box instead of half-working.
 */
export function defineUiPlugin(def: UiPluginDefinition): UiPluginDefinition {
  if (!ID_RE.test(def.id)) throw new Error(`UI plugin id "${def.id}" must be kebab-case`);
  if (def.contract && def.contract.id !== def.id) throw new Error(`UI plugin ${def.id}: contract of "${def.contract.id}"`);
  const check = (r: UiPluginRoute, parent?: string) => {
    if (!r.path.startsWith('/')) throw new Error(`UI plugin ${def.id}: route "${r.path}" must start with "/"`);
    if (parent && !r.path.startsWith(`${parent}/`)) throw new Error(`UI plugin ${def.id}: child route "${r.path}" must be under "${parent}"`);
    const renders = (r.element === undefined ? 0 : 1) + (r.lazy === undefined ? 0 : 1);
    if (renders > 1 || (renders === 0 && !r.children?.length)) {
      throw new Error(`UI plugin ${def.id}: route "${r.path}" needs exactly one of element or lazy`);
    }
    r.children?.forEach((c) => check(c, r.path));
  };
  def.routes.forEach((r) => check(r));
  const paths = new Set(flattenRoutes(def.routes).map((r) => r.path));
  for (const m of def.menus ?? []) if (!paths.has(m.path)) throw new Error(`UI plugin ${def.id}: menu ${m.key} leads to ${m.path}, which it does not declare`);
  for (const tab of def.settingsTabs ?? []) if (!paths.has(tab.path)) throw new Error(`UI plugin ${def.id}: settings tab ${tab.path} is not one of its routes`);
  return Object.freeze({ ...def, routes: [...def.routes] });
}

/** Every route of a list with its children, parents first. */
export function flattenRoutes(routes: UiPluginRoute[]): UiPluginRoute[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** Languages of the shell's catalogues; a plugin contract's texts go into each (regional ones read their base). */
const CATALOGUES = ['pt', 'pt-br', 'en', 'en-gb', 'en-us', 'es', 'es-419', 'de', 'fr', 'it', 'pl', 'ru'] as const;

/** Registers a plugin's strings as its own i18next namespace, and its contract's error texts as `errors.<CODE>` of the shell's. */
export function registerPluginLocales(def: UiPluginDefinition): void {
  for (const [lng, strings] of Object.entries(def.locales ?? {})) {
    if (strings) i18next.addResourceBundle(lng.toLowerCase(), def.id, strings, true, true);
  }
  if (!def.contract) return;
  for (const lng of CATALOGUES) {
    const base = lng.split('-')[0]!;
    const errors: Record<string, string> = {};
    for (const [code, e] of Object.entries(def.contract.errors)) {
      const text = (e.text as Record<string, string | undefined>)[lng] ?? (e.text as Record<string, string | undefined>)[base] ?? e.text.pt;
      // The catalogue's placeholders are `{name}`; i18next reads `{{name}}`.
      errors[code] = text.replace(/\{(\w+)\}/g, '{{$1}}');
    }
    i18next.addResourceBundle(lng, 'translation', { errors }, true, false);
  }
}

/**
 * `t` for a remote: looks in the remote's namespace first, then (through the
 * shell's `fallbackNS`) in the shell's catalogue, so `t('common.save')` works
 * from a plugin too.
 */
export function usePluginTranslation(pluginId: string) {
  return useTranslation([pluginId, 'translation']);
}

export interface UiPluginsState {
  status: 'idle' | 'loading' | 'ready';
  plugins: UiPluginDefinition[];
  /** Remotes that failed to load, with the reason (shown in their routes' error boxes). */
  failed: Array<{ id: string; error: string }>;
}

/** The remotes loaded for the current user (filled by the shell). */
export const uiPluginsAtom = atom<UiPluginsState>({ status: 'idle', plugins: [], failed: [] });

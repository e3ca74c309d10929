import i18next from 'i18next';
import { atom } from 'jotai';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Zones of the shell where remotes can mount widgets, with the props each
 * zone passes. Adding a zone is a change of this contract.
 */
export interface WidgetZoneProps {
  /** Right-hand contact panel of the ticket screen. */
  'ticket.sidebar': { ticketId: number; contactId?: number };
  /** Action area of the ticket header. */
  'ticket.header': { ticketId: number };
  /** Cards on the dashboard (`/home`). */
  'dashboard.cards': Record<string, never>;
  /** Extra items in the main layout header. */
  'layout.header': Record<string, never>;
}
export type WidgetZone = keyof WidgetZoneProps;

/** A screen a remote provides for one of the spec's routes. */
export interface UiPluginRoute {
  /** The hash route path exactly as declared in the shell's route table (e.g. `/configuracoes/motivos`). */
  path: string;
  /** Either a ready element… */
  element?: ReactNode;
  /** …or a lazily loaded screen (preferred: keeps the remote's entry tiny). */
  lazy?: () => Promise<{ default: ComponentType }>;
  /** Menu key guarding the route, when it differs from the shell table's. */
  menu?: string;
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
  routes: UiPluginRoute[];
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
  for (const r of def.routes) {
    if (!r.path.startsWith('/')) throw new Error(`UI plugin ${def.id}: route "${r.path}" must start with "/"`);
    if ((r.element === undefined) === (r.lazy === undefined)) {
      throw new Error(`UI plugin ${def.id}: route "${r.path}" needs exactly one of element or lazy`);
    }
  }
  return Object.freeze({ ...def, routes: [...def.routes] });
}

/** Registers a plugin's strings as its own i18next namespace. */
export function registerPluginLocales(def: UiPluginDefinition): void {
  for (const [lng, strings] of Object.entries(def.locales ?? {})) {
    if (strings) i18next.addResourceBundle(lng.toLowerCase(), def.id, strings, true, true);
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

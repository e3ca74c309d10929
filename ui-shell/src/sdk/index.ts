/**
 * `@atende/ui-shell/sdk`: the UI contract between the shell and every
 * federated remote. It is a module-federation singleton, so everything here
 * (session, store, query client, real-time connection, plugin registry)
 * exists once per page. Remotes import only from this module (and the shared
 * libraries), never from the shell's internals.
 *
 * @packageDocumentation
 */

/** HTTP client: `/api` base, bearer token, 20 s timeout, busy spinner, toasts, 401/403 rules. */
export { api, request, endSessionAndRedirect, ensureFreshToken, API_BASE, API_TIMEOUT_MS, LOGIN_REDIRECT_DELAY_MS } from './api.ts';
export type { RequestOptions, QueryValue } from './api.ts';
/** Failures of API calls and how to word them (error catalogue, core.md §8). */
export { ApiError, errorMessage, ERR_NETWORK, ERR_TIMEOUT } from './errors.ts';
/** Top-of-page toasts with the spec's durations. */
export { notify, TOAST_SUCCESS_MS, TOAST_ERROR_MS } from './notify.ts';
/** The global busy spinner state. */
export { busyAtom } from './busy.ts';
/** The page's jotai store. */
export { atendeStore } from './store.ts';
/** Session atoms and helpers. */
export {
  sessionAtom,
  loginEpochAtom,
  getSession,
  getAccessToken,
  startSession,
  updateSession,
  clearSession,
  homePathFor,
} from './session.ts';
export type { Session, LoginAnswer, Profile, UserConfigs } from './session.ts';
/** Theme atoms (tenant colours from `/api/publicSystemColors`). */
export { systemColorsAtom, primaryColorAtom, cacheSystemColors } from './theme.ts';
export type { SystemColorMap } from './theme.ts';
/** Access map of `GET /api/me/access`. */
export { accessQuery, useAccess, menuAllowed } from './access.ts';
export type { AccessInfo } from './access.ts';
/** The shared TanStack Query client. */
export { queryClient } from './query.ts';
/** Real-time events. */
export { realtime, useRealtime, useRealtimeRoom, realtimeStatusAtom, RealtimeClient } from './realtime.ts';
export type { RealtimeFrame, RealtimeHandler, RealtimeStatus } from './realtime.ts';
/** Plugin contract. */
export { defineUiPlugin, flattenRoutes, registerPluginLocales, usePluginTranslation, uiPluginsAtom } from './plugin.ts';
export type { UiPluginDefinition, UiPluginRoute, UiMenuEntry, UiSettingsTab, MenuSection, ChannelDialogSection, ChannelDialogSectionProps, ChannelDialogTab, ChannelDialogChannel, ChannelDialogContribution, UiPluginsState, WidgetZone, WidgetZoneProps, UiChannelType, ChannelFormProps, ChannelFormValue, ChannelFormChannel, ChannelConnectProps, ChannelConnectState, ComposerExtensionProps, ComposerTicket, ComposerTemplate, ComposerSendPayload } from './plugin.ts';
export { remoteName, REMOTE_EXPOSE } from './remote-name.ts';
/** What calls the user's attention: menu badges (summed in the tab title and favicon), alert sounds, desktop notifications. */
export {
  attentionAtom, setAttention, useAttention, playSound, soundsEnabled, desktopPermission, desktopNotificationsOn, requestDesktopPermission, desktopNotify, pageWatched,
} from './attention.ts';
export type { SoundKind, DesktopNotice } from './attention.ts';
/** Formatting and validation helpers. */
export { formatDate, formatDateTime, formatCurrency, formatNumber, localeTag, datePattern } from './format.ts';
/** Phone numbers as people write them (`+55 (11) 98888-7777`). */
export { formatPhone, usePhoneFormat } from './phone.ts';
export { isEmail, isCpf, isCnpj, isCpfOrCnpj, cpfCnpjKind, maskCpfCnpj, isStrongPassword } from './validation.ts';
/** Shared components. */
export { PageHeader } from './components/PageHeader.tsx';
export type { PageHeaderProps } from './components/PageHeader.tsx';
export { DataTable, useDataTableState, paginateLocally } from './components/DataTable.tsx';
export type { DataTableColumn, DataTableProps, DataTableQuery, DataTableSort, DataTablePage } from './components/DataTable.tsx';
export { ConfirmDialog } from './components/ConfirmDialog.tsx';
export type { ConfirmDialogProps } from './components/ConfirmDialog.tsx';
export { DateInputBR, DateTimeInputBR } from './components/DateInputs.tsx';
export type { DateInputBRProps } from './components/DateInputs.tsx';
export { EmptyState } from './components/EmptyState.tsx';
export type { EmptyStateProps } from './components/EmptyState.tsx';
export { ErrorBox } from './components/ErrorBox.tsx';
export type { ErrorBoxProps } from './components/ErrorBox.tsx';
export { ErrorBoundary } from './components/ErrorBoundary.tsx';
export { WidgetSlot } from './components/WidgetSlot.tsx';

import { api } from '@atende/ui-shell/sdk';
import type { Item, ItemInput, ItemsPage, ItemsQuery, Settings } from '@atende/plugin-__ID__/contract';

export type { Item, Settings };

const BASE = '/plugins/__ID__';

/** Query keys; the screen invalidates them on mutations and on the plugin's events. */
export const itemsKey = ['plugins', '__ID__', 'items'] as const;
export const settingsKey = ['plugins', '__ID__', 'settings'] as const;

/** The table shows its own error box, so the list call is silent. */
export const listItems = (query: ItemsQuery, signal?: AbortSignal) => api.get<ItemsPage>(`${BASE}/items`, { query, signal, silent: true });
/** Silent: the form shows the server's refusal under the field it concerns. */
export const createItem = (input: ItemInput) => api.post<Item>(`${BASE}/items`, input, { silent: true });
export const deleteItem = (id: number) => api.delete(`${BASE}/items/${id}`);

/** The tenant's settings of this plugin, through the kernel's route for every plugin's settings. */
export const getSettings = (signal?: AbortSignal) => api.get<Settings>(`/plugins/__ID__/settings`, { signal, silent: true });
export const saveSettings = (settings: Settings) => api.put<Settings>(`/plugins/__ID__/settings`, settings);

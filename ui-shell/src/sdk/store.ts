import { createStore } from 'jotai';

/**
 * The one jotai store of the page. The shell mounts it with `<Provider store>`
 * and non-React code (API client, real-time client) reads and writes it
 * directly; because the SDK is a federation singleton, remotes get the same
 * store and therefore the same session and theme.
 */
export const atendeStore = createStore();

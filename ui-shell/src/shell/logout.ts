import { api, clearSession, queryClient, realtime } from '@atende/ui-shell/sdk';

/**
 * Ends the session on both sides. The server call may fail (offline, token
 * already invalid): the browser forgets the login regardless.
 */
export async function logout({ silent = false }: { silent?: boolean } = {}): Promise<void> {
  try {
    await api.post('/auth/logout', undefined, { silent: true, background: silent });
  } catch {
    // ignored on purpose
  }
  realtime.stop();
  clearSession();
  queryClient.clear();
}

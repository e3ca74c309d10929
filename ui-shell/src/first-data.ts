/**
 * Logged in and not on a public page: every route guard first asks for the
 * access map, and the first screen for its data (and its code, see
 * `prefetchPath`). Ask now, before the first render and before the screen's
 * files fill the browser's connections; the guard and the screen find the
 * queries in flight.
 *
 * This module does its work when it is evaluated, and main.tsx imports it
 * before React DOM, Mantine and the app: the requests leave while the rest of
 * the page's code is still being evaluated (docs/performance.md U1). It is listed in
 * the package's `sideEffects` for that reason.
 */
import { accessQuery, getSession, queryClient } from '@atende/ui-shell/sdk';
import { prefetchPath, PUBLIC_ROUTES } from './routes.tsx';

const hashPath = window.location.hash.replace(/^#/, '').split('?')[0] ?? '';
if (getSession() && !PUBLIC_ROUTES.some((r) => hashPath.startsWith(r.path.split('/:')[0]!))) {
  void queryClient.prefetchQuery(accessQuery);
  prefetchPath(hashPath);
}

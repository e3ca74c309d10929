/** Page-wide behaviours of the spec that are not tied to one screen. */
import { useMantineColorScheme } from '@mantine/core';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { routerSettled, subscribeRouter } from '../router.tsx';
import { loadOverlays } from '../ui/overlays.tsx';
import { pluginsReady } from './plugins.ts';
import {
  accessQuery,
  api,
  cacheSystemColors,
  loginEpochAtom,
  queryClient,
  realtime,
  sessionAtom,
  systemColorsAtom,
  updateSession,
  type Profile,
  type SystemColorMap,
  type UserConfigs,
} from '@atende/ui-shell/sdk';

/** core.md §9: one tick every 30 s; 7200 ticks without mouse or keyboard → reload. */
export const INACTIVITY_TICK_MS = 30_000;
export const INACTIVITY_MAX_TICKS = 7200;

export function useInactivityReload(): void {
  useEffect(() => {
    let ticks = 0;
    const reset = () => {
      ticks = 0;
    };
    const events = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel'] as const;
    events.forEach((e) => window.addEventListener(e, reset, { passive: true }));
    const timer = setInterval(() => {
      ticks += 1;
      if (ticks >= INACTIVITY_MAX_TICKS) window.location.reload();
    }, INACTIVITY_TICK_MS);
    return () => {
      clearInterval(timer);
      events.forEach((e) => window.removeEventListener(e, reset));
    };
  }, []);
}

/** Tenant colours at start (`GET /api/publicSystemColors`), cached locally; a failure is only logged. */
export function useSystemColors(): void {
  const setColors = useSetAtom(systemColorsAtom);
  useEffect(() => {
    api.get<SystemColorMap[] | SystemColorMap>('/publicSystemColors', { background: true })
      .then((answer) => {
        const maps = Array.isArray(answer) ? answer : [answer];
        const colors: Record<string, string> = {};
        for (const m of maps) {
          if (m && typeof m === 'object') {
            for (const [k, v] of Object.entries(m)) if (typeof v === 'string') colors[k] = v;
          }
        }
        setColors(colors);
        cacheSystemColors(colors);
        // Non-primary colours stay reachable from CSS for screens that use them.
        for (const [k, v] of Object.entries(colors)) document.documentElement.style.setProperty(`--atende-${k}`, v);
      })
      .catch((e) => console.warn('publicSystemColors failed', e));
  }, [setColors]);
}

/** A new build on the server (`GET /api/check-version/` every 60 s) reloads the page. */
export function useVersionCheck(everyMs = 60_000): void {
  useEffect(() => {
    let known: string | undefined;
    const check = () => {
      api.get<{ version?: string }>('/check-version/', { background: true })
        .then((answer) => {
          const v = answer?.version;
          if (!v) return;
          if (known && v !== known) window.location.reload();
          known = v;
        })
        .catch(() => undefined);
    };
    check();
    const timer = setInterval(check, everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
}

interface UserAnswer {
  name?: string;
  email?: string;
  profile?: Profile;
  queues?: unknown[];
  configs?: UserConfigs;
  blockWavoip?: boolean;
  whatsappAllowed?: unknown[];
}

/** core.md §7: for non-`user` profiles the current user is refetched every 30 s. */
export function useCurrentUserRefresh(): void {
  const session = useAtomValue(sessionAtom);
  const userId = session?.userId;
  const profile = session?.profile;
  useEffect(() => {
    if (!userId || !profile || profile === 'user') return;
    const timer = setInterval(() => {
      api.get<UserAnswer>(`/users/${userId}`, { background: true })
        .then((u) => {
          const patch: Parameters<typeof updateSession>[0] = {};
          if (u.name) patch.username = u.name;
          if (u.email) patch.email = u.email;
          if (u.profile) patch.profile = u.profile;
          if (u.queues) patch.queues = u.queues;
          if (u.configs) patch.configs = u.configs;
          if (typeof u.blockWavoip === 'boolean') patch.blockWavoip = u.blockWavoip;
          if (u.whatsappAllowed) patch.whatsappAllowed = u.whatsappAllowed;
          updateSession(patch);
          // A changed profile changes what the user may open.
          if (u.profile && u.profile !== profile) void queryClient.invalidateQueries({ queryKey: accessQuery.queryKey });
        })
        .catch(() => undefined);
    }, 30_000);
    return () => clearInterval(timer);
  }, [userId, profile]);
}

/** The real-time connection follows the session. */
export function useRealtimeConnection(): void {
  const loggedIn = useAtomValue(sessionAtom) !== null;
  const epoch = useAtomValue(loginEpochAtom);
  useEffect(() => {
    if (!loggedIn) return;
    realtime.start();
    return () => realtime.stop();
  }, [loggedIn, epoch]);
}

/** Applies the user's saved dark-mode choice when a session starts. */
export function useUserColorScheme(): void {
  const epoch = useAtomValue(loginEpochAtom);
  const session = useAtomValue(sessionAtom);
  const { setColorScheme } = useMantineColorScheme();
  const isDark = session?.configs?.isDark;
  useEffect(() => {
    if (typeof isDark === 'boolean') setColorScheme(isDark ? 'dark' : 'light');
    // Only at session start: later toggles are the user's own action.
  }, [epoch, session?.userId]);
}

/** How long the page must stay without API traffic before the remotes start loading; and the longest it waits for that. */
const PLUGINS_AFTER_QUIET_MS = 400;
const PLUGINS_AT_LATEST_MS = 15_000;

/**
 * Loads the user's UI plugins (menu entries, widgets, channel forms) and the
 * shell's floating components (tooltips, menus, popovers) once the
 * first screen is up and has its data (no query in flight for a moment, then
 * an idle moment of the browser): a shell screen never waits for them and
 * their code does not compete with its download. A plugin route does not wait
 * for this: its loader asks for the plugins itself.
 */
export function usePluginPreload(): void {
  const loggedIn = useAtomValue(sessionAtom) !== null;
  const epoch = useAtomValue(loginEpochAtom);
  useEffect(() => {
    if (!loggedIn) return;
    let done = false;
    let quietTimer: ReturnType<typeof setTimeout> | undefined;
    let idle: number | undefined;
    const start = () => {
      if (done) return;
      done = true;
      void pluginsReady();
      // The shell's tooltips and menus too (ui/overlays.tsx), so the first hover does not wait for their code.
      void loadOverlays().catch(() => undefined);
    };
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(start, { timeout: 2000 });
      else start();
    };
    // Quiet means no query in flight AND the router done with its navigation: the
    // first screen's data is asked for before its code has arrived (main.tsx), so
    // queries alone can go quiet while the screen is still downloading.
    const quiet = () => queryClient.isFetching() === 0 && routerSettled();
    const check = () => {
      clearTimeout(quietTimer);
      if (!done && quiet()) quietTimer = setTimeout(() => quiet() && whenIdle(), PLUGINS_AFTER_QUIET_MS);
    };
    // The first screen's queries start after its code loads: give them a moment to begin.
    const first = setTimeout(check, PLUGINS_AFTER_QUIET_MS);
    const unsubscribe = queryClient.getQueryCache().subscribe(check);
    const unsubscribeRouter = subscribeRouter(check);
    const latest = setTimeout(start, PLUGINS_AT_LATEST_MS);
    return () => {
      done = true;
      unsubscribe();
      unsubscribeRouter();
      [first, latest, quietTimer].forEach((t) => clearTimeout(t));
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, [loggedIn, epoch]);
}

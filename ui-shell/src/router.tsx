/**
 * Turns the route table into a react-router 7 hash router. Every screen is
 * lazy: the shell's own screens, and plugin screens resolved at navigation
 * time from the remotes loaded for the current user.
 */
import i18next from 'i18next';
import type { ComponentType, ReactNode } from 'react';
import { Outlet, createHashRouter, redirect, useLoaderData, type LoaderFunction, type RouteObject } from 'react-router-dom';
import { ErrorBox, accessQuery, atendeStore, getSession, homePathFor, queryClient, uiPluginsAtom, type UiPluginDefinition, type UiPluginRoute } from '@atende/ui-shell/sdk';
import { firstMenuPath } from './layout/menu.ts';
import { AppSkeleton } from './layout/AppSkeleton.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import { RouteError } from './layout/RouteError.tsx';
import { LAYOUTS, MAIN_ROUTES, PUBLIC_ROUTES, ROOT_ROUTE, STANDALONE_ROUTES, type RouteDef, type ScreenLoader } from './routes.tsx';
import { AccessDenied } from './screens/AccessDenied.tsx';
import { NotFound } from './screens/NotFound.tsx';
import { deniedElsewhere, guardLoader, rootRedirect, type GuardResult } from './shell/guard.ts';
import { loadedPlugins, pluginsReady, type PluginSnapshot } from './shell/plugins.ts';
import { withTimeout } from './shell/timeout.ts';

type LazyResult = { Component?: ComponentType; element?: ReactNode };

/** Shown instead of a screen whose code could not be loaded (the caller logs the error; users get words, not stack traces). */
function loadFailure(pluginId?: string): LazyResult {
  const title = pluginId ? i18next.t('errorBox.pluginFailed', { id: pluginId }) : i18next.t('errorBox.loadFailed');
  return {
    element: <ErrorBox title={title} message={i18next.t('errorBox.loadFailedText')} onRetry={() => window.location.reload()} />,
  };
}

/**
 * Loads a screen module without ever rejecting: in react-router 7.18 a
 * rejected `lazy` renders nothing (not even `errorElement`), so failures
 * (network, a remote down, the 120 s part timeout) become an ErrorBox.
 */
async function safeScreen(load: ScreenLoader, pluginId?: string): Promise<LazyResult> {
  try {
    const mod = await withTimeout(load());
    return { Component: mod.default };
  } catch (e) {
    console.error(`Screen failed to load${pluginId ? ` (plugin ${pluginId})` : ''}`, e);
    return loadFailure(pluginId);
  }
}

/** The guard may ask /contatos to render an access-denied page instead of redirecting to itself. */
function guarded(Screen: ComponentType): ComponentType {
  return function GuardedScreen() {
    const data = useLoaderData() as GuardResult | undefined;
    return data?.denied ? <AccessDenied /> : <Screen />;
  };
}

/** What a shell table route renders: its screen, or NotFound. */
function screenLazy(def: RouteDef, fallback: ComponentType = NotFound) {
  return async (): Promise<LazyResult> => {
    let result: LazyResult = def.screen ? await safeScreen(def.screen) : { Component: fallback };
    if (result.Component) result = { Component: guarded(result.Component) };
    return result;
  };
}

/** A layout parent renders its screen around the children, or just the children while it has none. */
function layoutLazy(def: RouteDef) {
  return async (): Promise<LazyResult> => (def.screen ? safeScreen(def.screen) : { Component: Outlet });
}

const relative = (path: string, parent: string) => (parent === '' ? path : path.slice(parent.length + 1));

/** Route id of a shell layout, where remotes may add children (`/configuracoes/<tab>`). */
const layoutId = (path: string) => `layout:${path}`;

function toRoute(def: RouteDef, parentPath = ''): RouteObject {
  const handle = { name: def.name, menu: def.menu };
  const path = relative(def.path, parentPath);
  if (!def.children?.length) {
    return { id: def.name, path, handle, loader: guardLoader(def), lazy: screenLazy(def) };
  }
  const children = def.children.map((c) => toRoute(c, def.path));
  let index: RouteObject;
  if (def.redirect) {
    const target = def.redirect;
    index = { index: true, loader: () => redirect(target) };
  } else if (def.layout) {
    // The exact path of a layout: its screen shows with an empty outlet.
    index = { index: true, id: def.name, handle, loader: guardLoader(def), element: null };
  } else {
    index = { index: true, id: def.name, handle, loader: guardLoader(def), lazy: screenLazy(def) };
  }
  return def.layout
    ? { id: layoutId(def.path), path, handle, loader: guardLoader(def), lazy: layoutLazy(def), children: [index, ...children] }
    : { path, children: [index, ...children] };
}

/**
 * A remote's route as a router route: guarded by its menu like the shell's,
 * its screen loaded lazily from the remote (an ErrorBox if that fails).
 */
function remoteRoute(plugin: UiPluginDefinition, route: UiPluginRoute, parentPath: string): RouteObject {
  const def: RouteDef = { path: route.path, name: route.name ?? `${plugin.id}:${route.path}`, menu: route.menu };
  const handle = { name: def.name, menu: def.menu, plugin: plugin.id };
  const path = relative(route.path, parentPath);
  const own = async (): Promise<LazyResult> => {
    if (route.element !== undefined) return { element: route.element };
    if (route.lazy) return safeScreen(route.lazy, plugin.id);
    return { Component: Outlet };
  };
  if (!route.children?.length) {
    return { id: def.name, path, handle, loader: guardLoader(def), lazy: async () => {
      const r = await own();
      return r.Component ? { Component: guarded(r.Component) } : r;
    } };
  }
  const target = route.redirect;
  const index: RouteObject = target
    ? { index: true, loader: () => redirect(target) }
    : { index: true, id: `${def.name}:index`, handle, loader: guardLoader(def), element: null };
  return {
    id: `${def.name}:layout`, path, handle, loader: guardLoader(def), lazy: own,
    children: [index, ...route.children.map((c) => remoteRoute(plugin, c, route.path))],
  };
}

/** Where a remote's top-level route goes: under a shell layout that is its path prefix, else the main or standalone layout. */
function parentOf(route: UiPluginRoute): { id: string; path: string } {
  const layouts = [...MAIN_ROUTES, ...STANDALONE_ROUTES].filter((d) => d.layout && route.path.startsWith(`${d.path}/`));
  const deepest = layouts.sort((x, y) => y.path.length - x.path.length)[0];
  if (deepest) return { id: layoutId(deepest.path), path: deepest.path };
  return { id: route.layout === 'standalone' ? 'standalone-layout' : 'main-layout', path: '' };
}

/**
 * Mounts the remotes' routes into the running router, once per login. Called
 * by react-router for paths it cannot fully match (the catch-all `*` or a
 * dynamic segment): only a path nothing of the shell matches waits for the
 * remotes, so the shell's own screens never wait for them (docs/performance.md U1).
 */
function patchRemoteRoutes(): NonNullable<Parameters<typeof createHashRouter>[1]>['patchRoutesOnNavigation'] {
  let mounted: PluginSnapshot | undefined;
  return async ({ path, matches, patch, signal }) => {
    if (!getSession()) return;
    const last = matches[matches.length - 1];
    const trim = (p: string) => p.replace(/\/+$/, '') || '/';
    // Nothing matched, only the catch-all did, or a shell layout matched part of the path (`/configuracoes` of `/configuracoes/motivos`).
    const unmatched = !last || last.route.id === NOT_FOUND_ID || trim(last.pathname) !== trim(path);
    const snapshot = unmatched ? await pluginsReady() : loadedPlugins();
    // react-router drops the patches of a navigation that was replaced meanwhile (the user, or a
    // redirect, went elsewhere while the remotes loaded): the next navigation mounts them instead.
    if (!snapshot || snapshot === mounted || signal.aborted) return;
    mounted = snapshot;
    for (const { plugin, route } of snapshot.mounts) {
      const parent = parentOf(route);
      patch(parent.id, [remoteRoute(plugin, route, parent.path)]);
    }
  };
}

const NOT_FOUND_ID = 'not-found';

/**
 * A path nothing declares: the not-found page, except the user's landing page
 * (core.md §6: superadmin → assinatura) while no screen of it is installed,
 * which falls back to the first screen the rail offers them.
 */
const notFoundLoader: LoaderFunction = async ({ request }) => {
  const session = getSession();
  if (!session) return null;
  // The hash router hands loaders the route's path as the URL's path (the hash is not part of it).
  const path = new URL(request.url).pathname.replace(/(.)\/+$/, '$1') || '/';
  const access = await queryClient.ensureQueryData(accessQuery);
  // A remote is not offered to who may not use its menu, so its screens are unknown here; the server's route map still guards them.
  const denied = deniedElsewhere(path, access);
  if (denied) return denied;
  if (path !== homePathFor(session.profile)) return null;
  await pluginsReady();
  const first = firstMenuPath(access, session.profile, atendeStore.get(uiPluginsAtom).plugins);
  return first && first !== path ? redirect(first) : null;
};

let activeRouter: ReturnType<typeof createHashRouter> | undefined;

/** Whether the page's router has finished its first navigation (loaders, lazy screens) and is not navigating. */
export function routerSettled(): boolean {
  const state = activeRouter?.state;
  return !!state && state.initialized && state.navigation.state === 'idle';
}

/** Calls `fn` on every change of the page's router (the current one when called). */
export function subscribeRouter(fn: () => void): () => void {
  return activeRouter?.subscribe(fn) ?? (() => undefined);
}

/** Builds the router; the shell makes a new one after each login (see `loginEpochAtom`). */
export function createAppRouter() {
  activeRouter = createHashRouter([
    {
      id: 'app',
      path: '/',
      element: <RootLayout />,
      hydrateFallbackElement: <AppSkeleton />,
      errorElement: <RouteError />,
      children: [
        { index: true, id: ROOT_ROUTE.name, loader: rootRedirect },
        ...PUBLIC_ROUTES.map((def) => ({ id: def.name, path: def.path.slice(1), handle: { name: def.name }, lazy: screenLazy(def) })),
        // The layouts are lazy too: the login page never downloads the rail and its icons.
        {
          id: 'main-layout', errorElement: <RouteError />, children: MAIN_ROUTES.map((d) => toRoute(d)),
          lazy: () => safeScreen(LAYOUTS.main),
        },
        {
          id: 'standalone-layout', errorElement: <RouteError />, children: STANDALONE_ROUTES.map((d) => toRoute(d)),
          lazy: () => safeScreen(LAYOUTS.standalone),
        },
        { id: NOT_FOUND_ID, path: '*', loader: notFoundLoader, element: <NotFound standalone /> },
      ],
    },
  ], { patchRoutesOnNavigation: patchRemoteRoutes() });
  return activeRouter;
}

/**
 * Turns the route table into a react-router 7 hash router. Every screen is
 * lazy: the shell's own screens, and plugin screens resolved at navigation
 * time from the remotes loaded for the current user.
 */
import i18next from 'i18next';
import type { ComponentType, ReactNode } from 'react';
import { Outlet, createHashRouter, redirect, useLoaderData, type RouteObject } from 'react-router-dom';
import { ErrorBox } from '@atende/ui-shell/sdk';
import { AppSkeleton } from './layout/AppSkeleton.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import { RouteError } from './layout/RouteError.tsx';
import { LAYOUTS, MAIN_ROUTES, PUBLIC_ROUTES, ROOT_ROUTE, STANDALONE_ROUTES, type RouteDef, type ScreenLoader } from './routes.tsx';
import { AccessDenied } from './screens/AccessDenied.tsx';
import { NotFound } from './screens/NotFound.tsx';
import { guardLoader, rootRedirect, type GuardResult } from './shell/guard.ts';
import { pluginsReady } from './shell/plugins.ts';
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

/** Resolves what a table route renders: shell screen, plugin screen, or NotFound. */
function screenLazy(def: RouteDef, fallback: ComponentType = NotFound) {
  return async (): Promise<LazyResult> => {
    let result: LazyResult;
    if (def.screen) result = await safeScreen(def.screen);
    else {
      const plugins = await pluginsReady();
      const provided = plugins.routeFor(def.path);
      const failure = plugins.failureFor(def.path);
      if (provided?.route.element !== undefined) result = { element: provided.route.element };
      else if (provided?.route.lazy) result = await safeScreen(provided.route.lazy, provided.plugin.id);
      else if (failure) result = loadFailure(failure.id);
      else result = { Component: fallback };
    }
    if (result.Component) result = { Component: guarded(result.Component) };
    return result;
  };
}

/** A layout parent renders its screen around the children, or just the children while it has none. */
function layoutLazy(def: RouteDef) {
  return async (): Promise<LazyResult> => {
    if (def.screen) return safeScreen(def.screen);
    const provided = (await pluginsReady()).routeFor(def.path);
    if (provided?.route.lazy) return safeScreen(provided.route.lazy, provided.plugin.id);
    if (provided?.route.element !== undefined) return { element: provided.route.element };
    return { Component: Outlet };
  };
}

/** Whether a layout parent has a screen (its exact path then renders inside it, not NotFound). */
async function layoutProvided(def: RouteDef): Promise<boolean> {
  return Boolean(def.screen || (await pluginsReady()).routeFor(def.path));
}

const relative = (path: string, parent: string) => (parent === '' ? path : path.slice(parent.length + 1));

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
    // The exact path of a layout: its screen shows with an empty outlet, or NotFound while it has none.
    index = {
      index: true, id: def.name, handle, loader: guardLoader(def),
      lazy: async () => ((await layoutProvided(def)) ? { element: null } : { Component: NotFound }),
    };
  } else {
    index = { index: true, id: def.name, handle, loader: guardLoader(def), lazy: screenLazy(def) };
  }
  return def.layout
    ? { path, handle, loader: guardLoader(def), lazy: layoutLazy(def), children: [index, ...children] }
    : { path, children: [index, ...children] };
}

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
        { path: '*', element: <NotFound standalone /> },
      ],
    },
  ]);
  return activeRouter;
}

/**
 * The shell's own route table: the spec's routes whose screens the shell
 * itself renders (core.md §2: tickets, contacts, users, queues, tags, quick
 * messages, channels, settings, the dashboard and the auth pages), with the
 * menu key that guards each and their route names (part of the contract).
 *
 * Every other route of the spec is declared by the plugin whose screen it is,
 * in its remote (`defineUiPlugin({ routes, menus })`); the router mounts them
 * when the user's remotes load (router.tsx). A remote may nest a route under
 * a layout of this table (`/configuracoes/<tab>`), never replace one of these.
 */
import type { ComponentType } from 'react';
import { matchPath } from 'react-router-dom';
import { ensureAdminStrings } from './i18n/index.ts';
// Static on purpose: the ticket screen's first data is asked for as soon as the page's code runs (U1).
import { prefetchTicketScreen } from './screens/tickets/queries.ts';

/** Keys of the access map (`GET /api/me/access` → `menus`): the kernel's (core.md §6) and any a plugin declares. */
export type MenuKey = string;

export type ScreenLoader = () => Promise<{ default: ComponentType }>;

/** An admin screen comes with the admin section of the catalogue (see `ensureAdminStrings`). */
const adminScreen = (load: ScreenLoader): ScreenLoader => () => Promise.all([load(), ensureAdminStrings()]).then(([m]) => m);

export interface RouteDef {
  /** Absolute hash path in react-router syntax (`/campanhas/:campanhaId`). */
  path: string;
  /** Route name of the spec (unique). */
  name: string;
  /** Menu key checked by the route guard; undefined = any logged-in user. */
  menu?: MenuKey;
  /** For a parent: its exact path redirects to this child path. */
  redirect?: string;
  /**
   * The parent's screen wraps its children (tabs, the ticket list beside the
   * chat) and must render `<Outlet />`; remotes may add children to it.
   */
  layout?: boolean;
  /** The shell's own screen. */
  screen?: ScreenLoader;
  /**
   * Starts the data the screen asks for first, called by the route's guard
   * (logged in) in parallel with the access check and the screen's download.
   */
  prefetch?: (params: Record<string, string | undefined>) => void;
  children?: RouteDef[];
}

/** Routes inside the main layout (left rail + header). */
export const MAIN_ROUTES: RouteDef[] = [
  { path: '/home', name: 'home-dashboard', menu: 'dashboard', screen: adminScreen(() => import('./screens/admin/dashboard/DashboardPage.tsx')) },
  { path: '/painel-atendimentos', name: 'painel-atendimentos', menu: 'ticketPanel', screen: adminScreen(() => import('./screens/admin/panel/TicketPanelPage.tsx')) },
  { path: '/sessoes', name: 'sessoes', menu: 'channels', screen: adminScreen(() => import('./screens/admin/channels/ChannelsPage.tsx')) },
  { path: '/sessoestenants', name: 'sessoestenants', menu: 'channelsTenants', screen: adminScreen(() => import('./screens/admin/channels/TenantChannelsPage.tsx')) },
  { path: '/contatos', name: 'contatos', menu: 'contacts', screen: adminScreen(() => import('./screens/admin/contacts/ContactsPage.tsx')) },
  { path: '/usuarios', name: 'usuarios', menu: 'users', screen: adminScreen(() => import('./screens/admin/users/UsersPage.tsx')) },
  { path: '/mensagens-rapidas', name: 'mensagens-rapidas', menu: 'quickMessages', screen: adminScreen(() => import('./screens/admin/catalog/QuickMessagesScreen.tsx')) },
  { path: '/filas', name: 'filas', menu: 'queues', screen: adminScreen(() => import('./screens/admin/catalog/QueuesScreen.tsx')) },
  {
    // Its tabs (administration.md §2: General, Bots and AI, Integrations, CRM, Sessions) are "Geral" and the remotes' settings pages.
    path: '/configuracoes', name: 'configuracoes', menu: 'settings', layout: true, redirect: '/configuracoes/geral',
    screen: adminScreen(() => import('./screens/admin/settings/SettingsLayout.tsx')),
    children: [{ path: '/configuracoes/geral', name: 'geral', menu: 'settings', screen: adminScreen(() => import('./screens/admin/settings/GeneralSettings.tsx')) }],
  },
  { path: '/etiquetas', name: 'etiquetas', menu: 'tags', screen: adminScreen(() => import('./screens/admin/catalog/TagsScreen.tsx')) },
];

/** Routes outside the main layout that still need login. */
export const STANDALONE_ROUTES: RouteDef[] = [
  {
    path: '/atendimento', name: 'atendimento', menu: 'tickets', layout: true,
    screen: () => import('./screens/tickets/TicketsScreen.tsx'),
    // The list, and the ticket of /atendimento/:ticketId (the layout's loader sees its children's params).
    prefetch: ({ ticketId }) => prefetchTicketScreen(ticketId ? Number(ticketId) : undefined),
    children: [
      // `pageNumber` and the `timestamp` query value of the spec travel as search params.
      { path: '/atendimento/:ticketId', name: 'chat', menu: 'tickets', screen: () => import('./screens/tickets/ChatScreen.tsx') },
      { path: '/atendimento/contatos', name: 'chat-contatos', menu: 'tickets', screen: () => import('./screens/tickets/ContactsMode.tsx') },
    ],
  },
  // The spec declares the empty chat as the absolute child `/chats/` of
  // atendimento; react-router cannot nest an absolute path under another one.
  { path: '/chats', name: 'chat-empty', menu: 'tickets', screen: () => import('./screens/tickets/TicketsScreen.tsx') },
];

/** Routes reachable without login. */
export const PUBLIC_ROUTES: RouteDef[] = [
  { path: '/login', name: 'login', screen: () => import('./screens/Login.tsx') },
  { path: '/signup', name: 'signup', screen: () => import('./screens/Signup.tsx') },
  { path: '/reset/:token', name: 'reset', screen: () => import('./screens/ResetPassword.tsx') },
];

/** `/`: superadmin → assinatura, everyone else → contatos (core.md §2). */
export const ROOT_ROUTE = { path: '/', name: 'root' } as const;

/** Every route of the table, parents and children, in declaration order. */
export function allRoutes(): RouteDef[] {
  const out: RouteDef[] = [];
  const walk = (defs: RouteDef[]) => defs.forEach((d) => {
    out.push(d);
    if (d.children) walk(d.children);
  });
  walk([...MAIN_ROUTES, ...STANDALONE_ROUTES, ...PUBLIC_ROUTES]);
  return out;
}

/** Looks a route up by its spec name. */
export function routeByName(name: string): RouteDef | undefined {
  return allRoutes().find((r) => r.name === name);
}

/** Builds a hash path from a route name and params (`pathFor('chat', {ticketId: 5})` → `/atendimento/5`). */
export function pathFor(name: string, params: Record<string, string | number> = {}): string {
  const def = routeByName(name);
  if (!def) throw new Error(`Unknown route name ${name}`);
  return def.path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(String(params[k] ?? '')));
}

/** The two layouts of logged-in routes (lazy: the login page never downloads the rail and its icons). */
export const LAYOUTS = {
  main: () => import('./layout/MainLayout.tsx').then((m) => ({ default: m.MainLayout })),
  standalone: () => import('./layout/StandaloneLayout.tsx').then((m) => ({ default: m.StandaloneLayout })),
} satisfies Record<string, ScreenLoader>;

/**
 * Starts the data and the code of the page's first URL before React renders
 * (main.tsx): the route's guard and the router would do it too, but only
 * after the first render, behind the screen's files in the browser's
 * connection queue. A parent's prefetch gets the params of whichever of its
 * children matches. A failed download is left to the router, which shows it.
 */
export function prefetchPath(pathname: string): void {
  const warm = (load: ScreenLoader) => void load().catch(() => undefined);
  // The table has ~150 paths: compare their fixed start before matching (matchPath compiles a pattern per call).
  const mayMatch = (path: string) => {
    const fixed = path.split('/:')[0]!;
    return pathname === fixed || pathname.startsWith(fixed.endsWith('/') ? fixed : `${fixed}/`) || fixed.includes('*');
  };
  const visit = (defs: RouteDef[], layout: ScreenLoader) => {
    for (const def of defs) {
      if (!mayMatch(def.path)) continue;
      const match = [...(def.children ?? []), def].map((d) => matchPath({ path: d.path, end: false }, pathname)).find(Boolean);
      if (!match) continue;
      def.prefetch?.(match.params);
      warm(layout);
      if (def.screen) warm(def.screen);
      if (def.children) visit(def.children, layout);
    }
  };
  visit(MAIN_ROUTES, LAYOUTS.main);
  visit(STANDALONE_ROUTES, LAYOUTS.standalone);
}

/**
 * THE route table: every path and route name of the spec (core.md §2 and
 * administration.md §2), with the menu key that guards it. Names and paths
 * are part of the contract — change them only with the spec.
 *
 * A route renders, in order of preference:
 *  1. `screen`: a screen of the shell itself (`src/screens/…`), or
 *  2. the screen a loaded UI plugin declares for the same `path`
 *     (`defineUiPlugin({ routes: [{ path, lazy }] })`), or
 *  3. the NotFound page — never a placeholder.
 * To add a shell screen later: create it under `src/screens/` and set
 * `screen: () => import('./screens/<Name>.tsx')` on its entry here.
 */
import type { ComponentType } from 'react';
import { matchPath } from 'react-router-dom';
import { ensureAdminStrings } from './i18n/index.ts';
// Static on purpose: the ticket screen's first data is asked for as soon as the page's code runs (U1).
import { prefetchTicketScreen } from './screens/tickets/queries.ts';

/** Keys of the access map (`GET /api/me/access` → `menus`), named after the spec's menus (core.md §6). */
export type MenuKey =
  // all profiles
  | 'dashboard' | 'tickets' | 'contacts' | 'massSend' | 'groups' | 'chat' | 'kanban' | 'tasks'
  // supervisor adds
  | 'channels' | 'reports' | 'queues' | 'teams' | 'quickMessages' | 'chatbot' | 'schedules' | 'birthdays'
  | 'closing' | 'tags' | 'notes' | 'protocols' | 'evaluations' | 'businessHours' | 'campaigns'
  // admin adds
  | 'ticketPanel' | 'users' | 'wavoip' | 'api' | 'settings'
  // superadmin
  | 'monitor' | 'subscription' | 'tenants' | 'userTenants' | 'email' | 'plans' | 'payments' | 'channelsTenants'
  | 'superadminApi' | 'update' | 'customize' | 'notification' | 'queuesTasks' | 'internalData' | 'terminal';

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
   * chat) and must render `<Outlet />`; until a screen exists the children
   * render on their own.
   */
  layout?: boolean;
  /** The shell's own screen, when it has one. */
  screen?: ScreenLoader;
  /**
   * Starts the data the screen asks for first, called by the route's guard
   * (logged in) in parallel with the access check and the screen's download.
   */
  prefetch?: (params: Record<string, string | undefined>) => void;
  children?: RouteDef[];
}

const child = (parent: string, segment: string, name: string, menu: MenuKey): RouteDef => ({ path: `${parent}/${segment}`, name, menu });

const SETTINGS_CHILDREN: Array<[string, string]> = [
  ['geral', 'geral'], ['webhooks', 'webhooks'], ['typebot', 'typebot'], ['dialogflow', 'dialogflow'],
  ['chat-gpt', 'chat-gpt'], ['lm', 'lm'], ['ollama', 'ollama'], ['grok', 'grok'], ['gemini', 'gemini'],
  ['deepseek', 'deepseek'], ['qwen', 'qwen'], ['claude', 'claude'], ['n8n', 'n8n'], ['dify', 'dify'],
  // `lanes`, `sms` and `sessoes` also exist elsewhere: their names carry the parent to stay unique.
  ['lanes', 'configuracoes-lanes'], ['motivos', 'motivos'], ['meta', 'meta'], ['variaveis', 'variaveis'],
  ['sms', 'configuracoes-sms'], ['hub', 'hub'], ['wuzapi', 'wuzapi'], ['evolution', 'evolution'],
  ['smtp', 'smtp'], ['pagamentos', 'pagamentos'], ['sessoes', 'configuracoes-sessoes'],
];

/** Routes inside the main layout (left rail + header). */
export const MAIN_ROUTES: RouteDef[] = [
  { path: '/home', name: 'home-dashboard', menu: 'dashboard', screen: adminScreen(() => import('./screens/admin/dashboard/DashboardPage.tsx')) },
  // superadmin areas
  { path: '/tenants', name: 'tenants', menu: 'tenants' },
  { path: '/tenantsPk', name: 'tenantsPk', menu: 'internalData' },
  { path: '/tenantsQueue', name: 'tenantsQueue', menu: 'queuesTasks' },
  { path: '/notificacao', name: 'notificacao', menu: 'notification' },
  { path: '/terminal', name: 'terminal', menu: 'terminal' },
  { path: '/customizar', name: 'customizar', menu: 'customize' },
  { path: '/atualizar', name: 'atualizar', menu: 'update' },
  { path: '/painel-atendimentos', name: 'painel-atendimentos', menu: 'ticketPanel', screen: adminScreen(() => import('./screens/admin/panel/TicketPanelPage.tsx')) },
  { path: '/sessoes', name: 'sessoes', menu: 'channels', screen: adminScreen(() => import('./screens/admin/channels/ChannelsPage.tsx')) },
  { path: '/sessoestenants', name: 'sessoestenants', menu: 'channelsTenants', screen: adminScreen(() => import('./screens/admin/channels/TenantChannelsPage.tsx')) },
  { path: '/pagamentostenants', name: 'pagamentostenants', menu: 'payments' },
  { path: '/contatos', name: 'contatos', menu: 'contacts', screen: adminScreen(() => import('./screens/admin/contacts/ContactsPage.tsx')) },
  { path: '/usuarios', name: 'usuarios', menu: 'users', screen: adminScreen(() => import('./screens/admin/users/UsersPage.tsx')) },
  { path: '/usuariotenants', name: 'usuariotenants', menu: 'userTenants' },
  { path: '/auto-resposta', name: 'auto-resposta', menu: 'chatbot' },
  { path: '/mensagens-rapidas', name: 'mensagens-rapidas', menu: 'quickMessages', screen: adminScreen(() => import('./screens/admin/catalog/QuickMessagesScreen.tsx')) },
  { path: '/filas', name: 'filas', menu: 'queues', screen: adminScreen(() => import('./screens/admin/catalog/QueuesScreen.tsx')) },
  { path: '/planos', name: 'planos', menu: 'plans' },
  { path: '/assinatura', name: 'assinatura', menu: 'subscription' },
  { path: '/tenantApi', name: 'tenantApi', menu: 'superadminApi' },
  { path: '/equipes', name: 'equipes', menu: 'teams' },
  {
    path: '/kanban', name: 'kanban', menu: 'kanban', layout: true, redirect: '/kanban/kanbans',
    children: [child('/kanban', 'kanbans', 'kanbans', 'kanban'), child('/kanban', 'tags', 'tags', 'kanban')],
  },
  { path: '/tarefas', name: 'tarefas', menu: 'tasks' },
  { path: '/notas', name: 'notas', menu: 'notes' },
  { path: '/lanes', name: 'lanes', menu: 'kanban' },
  {
    path: '/configuracoes', name: 'configuracoes', menu: 'settings', layout: true, redirect: '/configuracoes/geral',
    screen: adminScreen(() => import('./screens/admin/settings/SettingsLayout.tsx')),
    children: SETTINGS_CHILDREN.map(([segment, name]) => segment === 'geral'
      ? { ...child('/configuracoes', segment, name, 'settings'), screen: adminScreen(() => import('./screens/admin/settings/GeneralSettings.tsx')) }
      : child('/configuracoes', segment, name, 'settings')),
  },
  {
    path: '/configuracoesTenant', name: 'configuracoesTenant', menu: 'email', layout: true, redirect: '/configuracoesTenant/smtp-tenant',
    children: [child('/configuracoesTenant', 'smtp-tenant', 'smtp-tenant', 'email')],
  },
  {
    path: '/massa', name: 'massa', menu: 'massSend', layout: true, redirect: '/massa/template',
    children: [
      child('/massa', 'texto', 'texto', 'massSend'),
      child('/massa', 'textovariavel', 'textovariavel', 'massSend'),
      child('/massa', 'sms', 'massa-sms', 'massSend'),
      child('/massa', 'template', 'template', 'massSend'),
      child('/massa', 'template-variavel', 'template-variavel', 'massSend'),
    ],
  },
  {
    path: '/grupo', name: 'grupo', menu: 'groups', layout: true, redirect: '/grupo/massagrupos',
    children: ['banlist', 'wordlist', 'saudacao', 'despedida', 'massagrupos', 'massagrupos2', 'massausuarios'].map((s) => child('/grupo', s, s, 'groups')),
  },
  { path: '/etiquetas', name: 'etiquetas', menu: 'tags', screen: adminScreen(() => import('./screens/admin/catalog/TagsScreen.tsx')) },
  { path: '/monitor', name: 'monitor', menu: 'monitor' },
  { path: '/agendamentos', name: 'agendamentos', menu: 'schedules' },
  { path: '/aniversarios', name: 'aniversarios', menu: 'birthdays' },
  { path: '/fechamento', name: 'fechamento', menu: 'closing' },
  { path: '/protocolos', name: 'protocolos', menu: 'protocols' },
  { path: '/wavoip', name: 'wavoip', menu: 'wavoip' },
  {
    path: '/avaliacoes', name: 'avaliacoes', menu: 'evaluations', layout: true, redirect: '/avaliacoes/listar',
    children: [child('/avaliacoes', 'listar', 'listar', 'evaluations'), child('/avaliacoes', 'configurar', 'configurar', 'evaluations')],
  },
  { path: '/campanhas', name: 'campanhas', menu: 'campaigns' },
  { path: '/campanhas/:campanhaId', name: 'contatos-campanha', menu: 'campaigns' },
  { path: '/horario-atendimento', name: 'horarioAtendimento', menu: 'businessHours' },
  { path: '/api-service', name: 'api-service', menu: 'api' },
  {
    // The list is the parent's own screen; the builder is a sibling page.
    path: '/chat-flow', name: 'chat-flow', menu: 'chatbot',
    children: [child('/chat-flow', 'builder', 'chat-flow-builder', 'chatbot')],
  },
  { path: '/configuracoesbloqueio', name: 'configuracoesbloqueio', menu: 'settings' },
];

/** Routes outside the main layout that still need login. */
export const STANDALONE_ROUTES: RouteDef[] = [
  { path: '/chat-privado', name: 'chat-privado', menu: 'chat' },
  {
    path: '/relatorios', name: 'relatorios', menu: 'reports',
    children: [
      'estatisticas-atendimentos-usuarios', 'lista-contatos', 'contatos-por-etiquetas', 'contatos-por-estado',
      'contatos-por-kanban', 'contatos-por-carteira', 'atendimentos-por-parametros',
    ].map((s) => child('/relatorios', s, s, 'reports')),
  },
  {
    path: '/atendimento', name: 'atendimento', menu: 'tickets', layout: true,
    screen: () => import('./screens/tickets/TicketsScreen.tsx'),
    // The list, and the ticket of /atendimento/:ticketId (the layout's loader sees its children's params).
    prefetch: ({ ticketId }) => prefetchTicketScreen(ticketId ? Number(ticketId) : undefined),
    children: [
      // `pageNumber` and the `timestamp` query value of the spec travel as search params.
      { ...child('/atendimento', ':ticketId', 'chat', 'tickets'), screen: () => import('./screens/tickets/ChatScreen.tsx') },
      { ...child('/atendimento', 'contatos', 'chat-contatos', 'tickets'), screen: () => import('./screens/tickets/ContactsMode.tsx') },
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

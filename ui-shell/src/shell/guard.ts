/**
 * Route guard (core.md §6): login required; superadmin bypasses menus; a
 * route whose menu (or name) is hidden says 'Acesso negado' and goes to
 * /contatos; a blocked tenant only reaches its settings.
 */
import i18next from 'i18next';
import { redirect, type LoaderFunction } from 'react-router-dom';
import { accessQuery, getSession, notify, queryClient, type AccessInfo } from '@atende/ui-shell/sdk';
import type { RouteDef } from '../routes.tsx';
import { logout } from './logout.ts';
import { pluginsReady } from './plugins.ts';

/** What a guarded route's loader hands to its element. */
export interface GuardResult {
  /** Set only for /contatos itself: redirecting there again would loop. */
  denied?: boolean;
}

const DENIED_FALLBACK = '/contatos';
const BLOCKED_HOME = '/configuracoesbloqueio';
/** Where /home sends a superadmin (core.md §2), a screen of the platform's remotes. */
const SUPERADMIN_DASHBOARD = '/tenants';

/** The menu key guarding a path: the server's route map first, then the first segment, then the route's own (shell table or remote). */
export function menuKeyFor(def: RouteDef, access: AccessInfo): string | undefined {
  const first = `/${def.path.split('/')[1] ?? ''}`;
  return access.routes?.[def.path] ?? access.routes?.[first] ?? def.menu;
}

export function isDenied(def: RouteDef, access: AccessInfo): boolean {
  if (access.superadmin) return false;
  const key = menuKeyFor(def, access);
  // A route guarded by a menu answers to that menu only: a child's name can repeat another
  // menu's key (/kanban/tags is named 'tags', like the admin-only tags menu) without being it.
  if (key !== undefined) return access.menus?.[key] === false;
  return access.menus?.[def.name] === false;
}

/**
 * For a path no loaded screen declares: when the server's route map guards it with a menu this
 * user lacks (the remote holding it is then not offered), 'Acesso negado' and /contatos, as the
 * guard does for known routes; otherwise undefined (the page is simply not found).
 */
export function deniedElsewhere(path: string, access: AccessInfo): Response | undefined {
  if (access.superadmin || path === DENIED_FALLBACK) return undefined;
  const first = `/${path.split('/')[1] ?? ''}`;
  const key = access.routes?.[path] ?? access.routes?.[first];
  if (key === undefined || access.menus?.[key] !== false) return undefined;
  notify.warning(i18next.t('session.accessDenied'));
  return redirect(DENIED_FALLBACK);
}

/** Sends a logged-out visitor to the login page. */
export function requireLogin(): void {
  if (!getSession()) {
    notify.warning(i18next.t('session.loginRequired'));
    throw redirect('/login');
  }
}

/** Builds the loader guarding one table route. */
export function guardLoader(def: RouteDef): LoaderFunction {
  return async ({ params }): Promise<GuardResult> => {
    requireLogin();
    def.prefetch?.(params);
    const access = await queryClient.ensureQueryData(accessQuery);
    if (!access.superadmin && access.tenant && ['inactive', 'disabled'].includes(String(access.tenant.status))) {
      // core.md §4: an inactive tenant produces a warning and a logout.
      notify.warning(i18next.t('errors.ERR_TENANT_INACTIVE'));
      await logout({ silent: true });
      throw redirect('/login');
    }
    // Only once a remote provides that screen: until then the dashboard is the superadmin's too, never a 404.
    if (def.name === 'home-dashboard' && access.superadmin && (await pluginsReady()).routeFor(SUPERADMIN_DASHBOARD)) throw redirect(SUPERADMIN_DASHBOARD);
    if (access.superadmin) return {};
    if (access.tenant?.blocked && def.path !== BLOCKED_HOME) {
      // core.md §6: a blocked tenant sees only settings.
      notify.warning(i18next.t('session.accessDenied'));
      throw redirect(BLOCKED_HOME);
    }
    if (isDenied(def, access)) {
      if (def.path === DENIED_FALLBACK) return { denied: true };
      notify.warning(i18next.t('session.accessDenied'));
      throw redirect(DENIED_FALLBACK);
    }
    return {};
  };
}

/** `/`: superadmin → /assinatura, others → /contatos; logged out → /login without a warning. */
export const rootRedirect: LoaderFunction = () => {
  const session = getSession();
  if (!session) throw redirect('/login');
  throw redirect(session.profile === 'superadmin' ? '/assinatura' : '/contatos');
};

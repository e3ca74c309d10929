import type { MenuDef, Profile } from '../../sdk/types.ts';

const ALL: Profile[] = ['user', 'super', 'admin', 'superadmin'];
const SUPER: Profile[] = ['super', 'admin', 'superadmin'];
const ADMIN: Profile[] = ['admin', 'superadmin'];
const ROOT: Profile[] = ['superadmin'];

/**
 * The kernel's menu table (spec core.md §6, administration.md §2 and §6).
 * `tenantMenu` names the per-tenant visibility flag, `userMenu` the per-user
 * toggle. Plugins add their own menus or attach routes to these keys.
 */
export const KERNEL_MENUS: MenuDef[] = [
  // all profiles
  { key: 'dashboard', label: 'menu.dashboard', route: '/home', profiles: ALL },
  { key: 'tickets', label: 'menu.tickets', route: '/atendimento', profiles: ALL },
  { key: 'contacts', label: 'menu.contacts', route: '/contatos', profiles: ALL },
  { key: 'massSend', label: 'menu.massSend', route: '/massa', profiles: ALL, tenantMenu: 'massSend', userMenu: 'massSend' },
  { key: 'groups', label: 'menu.groups', route: '/grupo', profiles: ALL, tenantMenu: 'groups', userMenu: 'groups' },
  { key: 'chat', label: 'menu.chat', route: '/chat-privado', profiles: ALL, tenantMenu: 'chat', userMenu: 'chat' },
  { key: 'kanban', label: 'menu.kanban', route: '/kanban', profiles: ALL, tenantMenu: 'kanban', userMenu: 'kanban' },
  { key: 'tasks', label: 'menu.tasks', route: '/tarefas', profiles: ALL, tenantMenu: 'tasks', userMenu: 'tasks' },
  // supervisor adds
  { key: 'channels', label: 'menu.channels', route: '/sessoes', profiles: SUPER, userMenu: 'sessions' },
  { key: 'reports', label: 'menu.reports', route: '/relatorios', profiles: SUPER, tenantMenu: 'reports', userMenu: 'reports' },
  { key: 'queues', label: 'menu.queues', route: '/filas', profiles: SUPER, userMenu: 'queues' },
  { key: 'teams', label: 'menu.teams', route: '/equipes', profiles: SUPER, tenantMenu: 'teams', userMenu: 'teams' },
  { key: 'quickMessages', label: 'menu.quickMessages', route: '/mensagens-rapidas', profiles: SUPER, userMenu: 'quickMessages' },
  { key: 'chatbot', label: 'menu.chatbot', route: '/chat-flow', profiles: SUPER, tenantMenu: 'chatbot', userMenu: 'chatflow' },
  { key: 'schedules', label: 'menu.schedules', route: '/agendamentos', profiles: SUPER, userMenu: 'schedules' },
  { key: 'birthdays', label: 'menu.birthdays', route: '/aniversarios', profiles: SUPER, userMenu: 'birthdays' },
  { key: 'closing', label: 'menu.closing', route: '/fechamento', profiles: SUPER, userMenu: 'closing' },
  { key: 'tags', label: 'menu.tags', route: '/etiquetas', profiles: SUPER, userMenu: 'tags' },
  { key: 'notes', label: 'menu.notes', route: '/notas', profiles: SUPER, userMenu: 'notes' },
  { key: 'protocols', label: 'menu.protocols', route: '/protocolos', profiles: SUPER, userMenu: 'protocols' },
  { key: 'evaluations', label: 'menu.evaluations', route: '/avaliacoes', profiles: SUPER, userMenu: 'evaluations' },
  { key: 'businessHours', label: 'menu.businessHours', route: '/horario-atendimento', profiles: SUPER, userMenu: 'businessHours' },
  { key: 'campaigns', label: 'menu.campaigns', route: '/campanhas', profiles: SUPER, tenantMenu: 'campaigns', userMenu: 'campaigns' },
  // admin adds
  { key: 'ticketPanel', label: 'menu.ticketPanel', route: '/painel-atendimentos', profiles: ADMIN },
  { key: 'users', label: 'menu.users', route: '/usuarios', profiles: ADMIN },
  { key: 'wavoip', label: 'menu.wavoip', route: '/wavoip', profiles: ADMIN },
  { key: 'api', label: 'menu.api', route: '/api-service', profiles: ADMIN, tenantMenu: 'api' },
  { key: 'settings', label: 'menu.settings', route: '/configuracoes', profiles: ADMIN },
  // superadmin
  { key: 'monitor', label: 'menu.monitor', route: '/monitor', profiles: ROOT },
  { key: 'subscription', label: 'menu.subscription', route: '/assinatura', profiles: ROOT },
  { key: 'tenants', label: 'menu.tenants', route: '/tenants', profiles: ROOT },
  { key: 'userTenants', label: 'menu.userTenants', route: '/usuariotenants', profiles: ROOT },
  { key: 'email', label: 'menu.email', route: '/configuracoesTenant', profiles: ROOT },
  { key: 'plans', label: 'menu.plans', route: '/planos', profiles: ROOT },
  { key: 'payments', label: 'menu.payments', route: '/pagamentostenants', profiles: ROOT },
  { key: 'channelsTenants', label: 'menu.channelsTenants', route: '/sessoestenants', profiles: ROOT },
  { key: 'superadminApi', label: 'menu.superadminApi', route: '/tenantApi', profiles: ROOT },
  { key: 'update', label: 'menu.update', route: '/atualizar', profiles: ROOT },
  { key: 'customize', label: 'menu.customize', route: '/customizar', profiles: ROOT },
  { key: 'notification', label: 'menu.notification', route: '/notificacao', profiles: ROOT },
  { key: 'queuesTasks', label: 'menu.queuesTasks', route: '/tenantsQueue', profiles: ROOT },
  { key: 'internalData', label: 'menu.internalData', route: '/tenantsPk', profiles: ROOT },
  { key: 'terminal', label: 'menu.terminal', route: '/terminal', profiles: ROOT },
];

export interface AccessSubject {
  profile: Profile;
  /** Per-user toggles: a key set to false hides the menu. */
  userMenus: Record<string, boolean>;
  /** Per-tenant visibility flags: a key set to false hides the menu. */
  tenantMenus: Record<string, boolean>;
  tenantBlocked: boolean;
  /** supervisorAdmin setting: supervisors follow regular user rules. */
  supervisorDemoted?: boolean;
}

/** The profile a subject acts with: a supervisor follows user rules while the supervisorAdmin setting is on. */
export function effectiveProfile(s: Pick<AccessSubject, 'profile' | 'supervisorDemoted'>): Profile {
  return s.profile === 'super' && s.supervisorDemoted ? 'user' : s.profile;
}

/**
 * The one function that decides whether a user may use a menu (and so its
 * screens and routes). Superadmin bypasses every restriction; a blocked
 * tenant reaches only settings; then the profile, the tenant's menu flags and
 * the user's own menu toggles must all allow it.
 */
export function menuAllowed(menu: MenuDef, s: AccessSubject): boolean {
  if (s.profile === 'superadmin') return true;
  const profile = effectiveProfile(s);
  if (s.tenantBlocked) return menu.key === 'settings' && menu.profiles.includes(profile);
  if (!menu.profiles.includes(profile)) return false;
  if (menu.tenantMenu && s.tenantMenus[menu.tenantMenu] === false) return false;
  if (menu.userMenu && s.userMenus[menu.userMenu] === false) return false;
  return true;
}

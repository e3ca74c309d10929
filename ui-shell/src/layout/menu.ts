/**
 * The left rail, grouped as the spec's menus (core.md §6). Which items show
 * comes from the access map; when the server does not mention a key, the
 * spec's default menu set of the user's profile decides.
 */
import {
  IconActivity, IconAddressBook, IconApi, IconBell, IconBolt, IconBrandWhatsapp, IconBuilding, IconCake,
  IconCalendarTime, IconChartBar, IconChecklist, IconClock, IconCloudDownload, IconCreditCard, IconDatabase,
  IconDeviceDesktopAnalytics, IconFileCertificate, IconKey, IconLayoutDashboard, IconLayoutKanban, IconLicense,
  IconListCheck, IconMail, IconMessage2Check, IconMessageCircle, IconMessages, IconNotes, IconPackage, IconPalette,
  IconPhone, IconPlugConnected, IconRobot, IconSend, IconSettings, IconSpeakerphone, IconStack2, IconStar, IconTags,
  IconTerminal2, IconUserCog, IconUserShield, IconUsers, IconUsersGroup, type Icon,
} from '@tabler/icons-react';
import type { AccessInfo, Profile } from '@atende/ui-shell/sdk';
import type { MenuKey } from '../routes.tsx';

export interface NavItem {
  key: MenuKey;
  path: string;
  icon: Icon;
}

export interface NavGroup {
  key: 'service' | 'outreach' | 'management' | 'admin' | 'platform';
  items: NavItem[];
}

export const NAV_GROUPS: NavGroup[] = [
  {
    key: 'service',
    items: [
      { key: 'dashboard', path: '/home', icon: IconLayoutDashboard },
      { key: 'tickets', path: '/atendimento', icon: IconMessages },
      { key: 'ticketPanel', path: '/painel-atendimentos', icon: IconDeviceDesktopAnalytics },
      { key: 'contacts', path: '/contatos', icon: IconAddressBook },
      { key: 'chat', path: '/chat-privado', icon: IconMessageCircle },
      { key: 'kanban', path: '/kanban', icon: IconLayoutKanban },
      { key: 'tasks', path: '/tarefas', icon: IconChecklist },
    ],
  },
  {
    key: 'outreach',
    items: [
      { key: 'campaigns', path: '/campanhas', icon: IconSpeakerphone },
      { key: 'massSend', path: '/massa', icon: IconSend },
      { key: 'groups', path: '/grupo', icon: IconUsersGroup },
      { key: 'schedules', path: '/agendamentos', icon: IconCalendarTime },
      { key: 'birthdays', path: '/aniversarios', icon: IconCake },
      { key: 'closing', path: '/fechamento', icon: IconMessage2Check },
      { key: 'chatbot', path: '/chat-flow', icon: IconRobot },
    ],
  },
  {
    key: 'management',
    items: [
      { key: 'channels', path: '/sessoes', icon: IconPlugConnected },
      { key: 'queues', path: '/filas', icon: IconStack2 },
      { key: 'teams', path: '/equipes', icon: IconUsers },
      { key: 'users', path: '/usuarios', icon: IconUserCog },
      { key: 'quickMessages', path: '/mensagens-rapidas', icon: IconBolt },
      { key: 'tags', path: '/etiquetas', icon: IconTags },
      { key: 'notes', path: '/notas', icon: IconNotes },
      { key: 'protocols', path: '/protocolos', icon: IconFileCertificate },
      { key: 'evaluations', path: '/avaliacoes', icon: IconStar },
      { key: 'businessHours', path: '/horario-atendimento', icon: IconClock },
      { key: 'reports', path: '/relatorios', icon: IconChartBar },
    ],
  },
  {
    key: 'admin',
    items: [
      { key: 'wavoip', path: '/wavoip', icon: IconPhone },
      { key: 'api', path: '/api-service', icon: IconApi },
      { key: 'settings', path: '/configuracoes', icon: IconSettings },
    ],
  },
  {
    key: 'platform',
    items: [
      { key: 'monitor', path: '/monitor', icon: IconActivity },
      { key: 'subscription', path: '/assinatura', icon: IconLicense },
      { key: 'tenants', path: '/tenants', icon: IconBuilding },
      { key: 'userTenants', path: '/usuariotenants', icon: IconUserShield },
      { key: 'email', path: '/configuracoesTenant', icon: IconMail },
      { key: 'plans', path: '/planos', icon: IconPackage },
      { key: 'payments', path: '/pagamentostenants', icon: IconCreditCard },
      { key: 'channelsTenants', path: '/sessoestenants', icon: IconBrandWhatsapp },
      { key: 'superadminApi', path: '/tenantApi', icon: IconKey },
      { key: 'update', path: '/atualizar', icon: IconCloudDownload },
      { key: 'customize', path: '/customizar', icon: IconPalette },
      { key: 'notification', path: '/notificacao', icon: IconBell },
      { key: 'queuesTasks', path: '/tenantsQueue', icon: IconListCheck },
      { key: 'internalData', path: '/tenantsPk', icon: IconDatabase },
      { key: 'terminal', path: '/terminal', icon: IconTerminal2 },
    ],
  },
];

const ALL: MenuKey[] = ['dashboard', 'tickets', 'contacts', 'massSend', 'groups', 'chat', 'kanban', 'tasks'];
const SUPER: MenuKey[] = [...ALL, 'channels', 'reports', 'queues', 'teams', 'quickMessages', 'chatbot', 'schedules', 'birthdays', 'closing', 'tags', 'notes', 'protocols', 'evaluations', 'businessHours', 'campaigns'];
const ADMIN: MenuKey[] = [...SUPER, 'ticketPanel', 'users', 'wavoip', 'api', 'settings'];
const SUPERADMIN: MenuKey[] = NAV_GROUPS.find((g) => g.key === 'platform')!.items.map((i) => i.key);

/** The spec's default menu set of a profile. */
export function defaultMenus(profile: Profile | undefined): ReadonlySet<MenuKey> {
  switch (profile) {
    case 'superadmin': return new Set(SUPERADMIN);
    case 'admin': return new Set(ADMIN);
    case 'super': return new Set(SUPER);
    default: return new Set(ALL);
  }
}

/** The rail for this user: groups with their visible items, empty groups dropped. */
export function visibleGroups(access: AccessInfo | undefined, profile: Profile | undefined): NavGroup[] {
  const defaults = defaultMenus(access?.superadmin ? 'superadmin' : profile);
  const blocked = Boolean(access?.tenant?.blocked) && !access?.superadmin;
  const show = (key: MenuKey): boolean => {
    if (blocked) return key === 'settings';
    const server = access?.menus?.[key];
    if (access?.superadmin && defaults.has(key)) return true;
    return server ?? defaults.has(key);
  };
  return NAV_GROUPS
    .map((g) => ({ ...g, items: g.items.filter((i) => show(i.key)).map((i) => (blocked && i.key === 'settings' ? { ...i, path: '/configuracoesbloqueio' } : i)) }))
    .filter((g) => g.items.length > 0);
}

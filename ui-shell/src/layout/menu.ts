/**
 * The left rail, grouped as the spec's menus (core.md §6): the shell's own
 * screens below, plus the entries each loaded remote declares for its
 * screens (`defineUiPlugin({ menus })`). An entry shows only where a screen
 * exists and the access map allows its key, so no menu leads to a 404.
 */
import {
  IconAddressBook, IconBolt, IconBrandWhatsapp, IconDeviceDesktopAnalytics, IconLayoutDashboard, IconMessages,
  IconPlugConnected, IconSettings, IconStack2, IconTags, IconUserCog, type Icon,
} from '@tabler/icons-react';
import type { AccessInfo, MenuSection, Profile, UiPluginDefinition } from '@atende/ui-shell/sdk';

export interface NavItem {
  key: string;
  path: string;
  icon: Icon | NonNullable<UiPluginDefinition['menus']>[number]['icon'];
  /** i18n key of the label; the shell's own use `menu.<key>`. */
  label: string;
  /** The remote that declared the entry (its namespace translates the label). */
  pluginId?: string;
  order: number;
}

export interface NavGroup {
  key: MenuSection;
  items: NavItem[];
}

const SECTIONS: MenuSection[] = ['service', 'outreach', 'management', 'admin', 'platform'];

const shell = (key: string, path: string, icon: Icon, order: number): NavItem => ({ key, path, icon, label: `menu.${key}`, order });

/** The shell's own screens in the rail (the remotes add theirs between, by `order`). */
export const SHELL_ITEMS: Record<MenuSection, NavItem[]> = {
  service: [
    shell('dashboard', '/home', IconLayoutDashboard, 10),
    shell('tickets', '/atendimento', IconMessages, 20),
    shell('ticketPanel', '/painel-atendimentos', IconDeviceDesktopAnalytics, 30),
    shell('contacts', '/contatos', IconAddressBook, 40),
  ],
  outreach: [],
  management: [
    shell('channels', '/sessoes', IconPlugConnected, 10),
    shell('queues', '/filas', IconStack2, 20),
    shell('users', '/usuarios', IconUserCog, 40),
    shell('quickMessages', '/mensagens-rapidas', IconBolt, 50),
    shell('tags', '/etiquetas', IconTags, 60),
  ],
  admin: [shell('settings', '/configuracoes', IconSettings, 30)],
  platform: [shell('channelsTenants', '/sessoestenants', IconBrandWhatsapp, 80)],
};

const ALL = ['dashboard', 'tickets', 'contacts', 'massSend', 'groups', 'chat', 'kanban', 'tasks'];
const SUPER = [...ALL, 'channels', 'reports', 'queues', 'teams', 'quickMessages', 'chatbot', 'schedules', 'birthdays', 'closing', 'tags', 'notes', 'protocols', 'evaluations', 'businessHours', 'campaigns'];
const ADMIN = [...SUPER, 'ticketPanel', 'users', 'wavoip', 'api', 'settings'];

/**
 * The spec's default menu set of a profile (core.md §6), used only while the
 * server's access map has not answered; a superadmin's are the platform entries.
 */
export function defaultMenus(profile: Profile | undefined, platformKeys: string[] = []): ReadonlySet<string> {
  switch (profile) {
    case 'superadmin': return new Set(['channelsTenants', ...platformKeys]);
    case 'admin': return new Set(ADMIN);
    case 'super': return new Set(SUPER);
    default: return new Set(ALL);
  }
}

/** Every rail entry: the shell's and the loaded remotes', by section and order. */
export function allItems(plugins: UiPluginDefinition[]): Record<MenuSection, NavItem[]> {
  const out = Object.fromEntries(SECTIONS.map((s) => [s, [...SHELL_ITEMS[s]]])) as Record<MenuSection, NavItem[]>;
  const taken = new Set(SECTIONS.flatMap((s) => out[s].map((i) => i.path)));
  for (const p of plugins) {
    for (const m of p.menus ?? []) {
      if (taken.has(m.path)) continue;
      taken.add(m.path);
      out[m.section].push({ key: m.key, path: m.path, icon: m.icon, label: m.label, pluginId: p.id, order: m.order });
    }
  }
  for (const s of SECTIONS) out[s].sort((a, b) => a.order - b.order);
  return out;
}

/** The rail for this user: groups with their visible items, empty groups dropped. */
export function visibleGroups(access: AccessInfo | undefined, profile: Profile | undefined, plugins: UiPluginDefinition[] = []): NavGroup[] {
  const items = allItems(plugins);
  const defaults = defaultMenus(access?.superadmin ? 'superadmin' : profile, items.platform.map((i) => i.key));
  const blocked = Boolean(access?.tenant?.blocked) && !access?.superadmin;
  const show = (item: NavItem): boolean => {
    if (blocked) return item.key === 'settings';
    if (access?.superadmin && defaults.has(item.key)) return true;
    const server = access?.menus?.[item.key];
    return server ?? (!item.pluginId && defaults.has(item.key));
  };
  return SECTIONS
    .map((key) => ({ key, items: items[key].filter(show).map((i) => (blocked && i.key === 'settings' ? { ...i, path: '/configuracoesbloqueio' } : i)) }))
    .filter((g) => g.items.length > 0);
}

/** The first screen the rail offers this user (the landing fallback while their profile's landing page is not installed). */
export function firstMenuPath(access: AccessInfo | undefined, profile: Profile | undefined, plugins: UiPluginDefinition[]): string | undefined {
  return visibleGroups(access, profile, plugins)[0]?.items[0]?.path;
}

import { IconReportAnalytics } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-reports/contract';
import { locales } from './locales.ts';

const contacts = () => import('./ContactsReport.tsx');

/**
 * Reports (`/relatorios`, outside the main layout, administration.md §2): the
 * frame with its children, `/relatorios` itself opening the first. Screens
 * load when their route opens.
 */
export default defineUiPlugin({
  id: 'reports',
  contract,
  routes: [
    {
      path: '/relatorios',
      name: 'relatorios',
      menu: 'reports',
      layout: 'standalone',
      redirect: '/relatorios/atendimentos-por-parametros',
      lazy: () => import('./ReportsLayout.tsx'),
      children: [
        { path: '/relatorios/atendimentos-por-parametros', name: 'atendimentos-por-parametros', menu: 'reports', lazy: () => import('./TicketsReport.tsx') },
        { path: '/relatorios/estatisticas-atendimentos-usuarios', name: 'estatisticas-atendimentos-usuarios', menu: 'reports', lazy: () => import('./UserStatsReport.tsx') },
        { path: '/relatorios/lista-contatos', name: 'lista-contatos', menu: 'reports', lazy: () => contacts().then((m) => ({ default: m.ContactList })) },
        { path: '/relatorios/contatos-por-etiquetas', name: 'contatos-por-etiquetas', menu: 'reports', lazy: () => contacts().then((m) => ({ default: m.ContactsByTag })) },
        { path: '/relatorios/contatos-por-estado', name: 'contatos-por-estado', menu: 'reports', lazy: () => contacts().then((m) => ({ default: m.ContactsByState })) },
        { path: '/relatorios/contatos-por-carteira', name: 'contatos-por-carteira', menu: 'reports', lazy: () => contacts().then((m) => ({ default: m.ContactsByWallet })) },
      ],
    },
  ],
  menus: [{ key: 'reports', label: 'menu', icon: IconReportAnalytics, path: '/relatorios', section: 'management', order: 20 }],
  locales,
});

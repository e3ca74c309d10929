import { IconStar } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-ratings/contract';
import { locales } from './locales.ts';

/** Ratings: `/avaliacoes` (tabs) with `listar` and `configurar`; the bare path redirects to `listar`. */
export default defineUiPlugin({
  id: 'ratings',
  contract,
  // The tabs are children of the layout, and the bare path redirects to the list (the shell renders them in its <Outlet />).
  routes: [
    {
      path: '/avaliacoes',
      name: 'avaliacoes',
      menu: 'evaluations',
      redirect: '/avaliacoes/listar',
      lazy: () => import('./RatingsLayout.tsx'),
      children: [
        { path: '/avaliacoes/listar', name: 'listar', menu: 'evaluations', lazy: () => import('./RatingsListPage.tsx') },
        { path: '/avaliacoes/configurar', name: 'configurar', menu: 'evaluations', lazy: () => import('./RatingsConfigPage.tsx') },
      ],
    },
  ],
  // The rail entry (label from the shell's catalogue of the spec's menu names, core.md §6).
  menus: [{ key: 'evaluations', label: 'menu.evaluations', icon: IconStar, path: '/avaliacoes', section: 'management', order: 90 }],
  locales,
});

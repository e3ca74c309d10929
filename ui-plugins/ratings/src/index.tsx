import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-ratings/contract';
import { locales } from './locales.ts';

/** Ratings: `/avaliacoes` (tabs) with `listar` and `configurar`; the shell redirects the parent to `listar`. */
export default defineUiPlugin({
  id: 'ratings',
  contract,
  routes: [
    { path: '/avaliacoes', lazy: () => import('./RatingsLayout.tsx'), menu: 'evaluations' },
    { path: '/avaliacoes/listar', lazy: () => import('./RatingsListPage.tsx'), menu: 'evaluations' },
    { path: '/avaliacoes/configurar', lazy: () => import('./RatingsConfigPage.tsx'), menu: 'evaluations' },
  ],
  locales,
});

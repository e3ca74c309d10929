import { IconClock } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-business-hours/contract';
import { locales } from './locales.ts';

/** Business hours and the absence message, `/horario-atendimento`. */
export default defineUiPlugin({
  id: 'business-hours',
  contract,
  routes: [{ path: '/horario-atendimento', name: 'horario-atendimento', lazy: () => import('./BusinessHoursPage.tsx'), menu: 'businessHours' }],
  // The rail entry (label from the shell's catalogue of the spec's menu names, core.md §6).
  menus: [{ key: 'businessHours', label: 'menu.businessHours', icon: IconClock, path: '/horario-atendimento', section: 'management', order: 100 }],
  locales,
});

import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-business-hours/contract';
import { locales } from './locales.ts';

/** Business hours and the absence message, `/horario-atendimento`. */
export default defineUiPlugin({
  id: 'business-hours',
  contract,
  routes: [{ path: '/horario-atendimento', lazy: () => import('./BusinessHoursPage.tsx'), menu: 'businessHours' }],
  locales,
});

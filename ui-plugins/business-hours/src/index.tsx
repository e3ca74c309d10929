import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/** Business hours and the absence message, `/horario-atendimento`. */
export default defineUiPlugin({
  id: 'business-hours',
  routes: [{ path: '/horario-atendimento', lazy: () => import('./BusinessHoursPage.tsx'), menu: 'businessHours' }],
  locales,
});

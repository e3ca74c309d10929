import { definePlugin } from '@atende/core/sdk';
import { contract } from './contract.ts';

/**
 * Business hours (horário de atendimento, core.md §3–4): the screen over the
 * kernel's per-weekday hours and absence message (`GET|PUT
 * /tenants/business-hours`, `PUT /tenants/message-business-hours`). The kernel
 * decides, in the tenant's time zone, when the absence message goes out; the
 * plugin owns the menu and the screen, so a tenant can switch them off.
 */
export default definePlugin({
  id: 'business-hours',
  kind: 'feature',
  name: 'Horário de atendimento',
  description: 'Horário de atendimento por dia da semana e mensagem de ausência.',
  contract,
  menus: [{ key: 'businessHours', label: 'menu.businessHours', route: '/horario-atendimento', profiles: ['super', 'admin', 'superadmin'], userMenu: 'businessHours' }],
  ui: true,
  register() {
    /* routes are the kernel's; see the description */
  },
});

import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { TicketPanel } from './TicketPanel.tsx';
import { locales } from './locales.ts';

/**
 * __LABEL__ in the ticket screen's side panel. Remotes cannot add routes of
 * their own (the route table is the spec's); tools live in the shell's zones.
 */
export default defineUiPlugin({
  id: '__ID__',
  routes: [],
  widgets: { 'ticket.sidebar': TicketPanel },
  locales,
});

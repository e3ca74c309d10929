import { defineUiPlugin, type WidgetZoneProps } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-__ID__/contract';
import { ContactItems } from './ContactItems.tsx';
import { locales } from './locales.ts';

/** The ticket's contact, once the ticket screen knows it. */
function TicketPanel({ contactId }: WidgetZoneProps['ticket.sidebar']) {
  return contactId ? <ContactItems contactId={contactId} /> : null;
}

/**
 * __LABEL__ in two of the shell's zones: the ticket screen's side panel and
 * the contact drawer (`/contatos`). A tool needs no screen of its own; add
 * `routes` and `menus` (see `atende plugin create feature`) when it does.
 */
export default defineUiPlugin({
  id: '__ID__',
  contract,
  routes: [],
  widgets: { 'ticket.sidebar': TicketPanel, 'contact.drawer': ContactItems },
  locales,
});

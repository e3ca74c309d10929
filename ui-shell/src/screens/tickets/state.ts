import { atom } from 'jotai';
import { EMPTY_FILTERS, type TicketFilters, type TicketStatus } from './api.ts';

/** The list's tab; the conversation moves it along when the agent starts, resolves or reopens a ticket. */
export const statusTabAtom = atom<TicketStatus>('open');
export const filtersAtom = atom<TicketFilters>(EMPTY_FILTERS);
/** Whether the contact panel is shown beside the conversation. */
export const contactPanelAtom = atom<boolean>(typeof window !== 'undefined' ? window.innerWidth >= 1280 : true);

import { atom } from 'jotai';
import { EMPTY_FILTERS, type TicketFilters, type TicketStatus } from './api.ts';

/** The list's tab; the conversation moves it along when the agent starts, resolves or reopens a ticket. */
export const statusTabAtom = atom<TicketStatus>('open');
export const filtersAtom = atom<TicketFilters>(EMPTY_FILTERS);
/** Whether the contact panel is shown beside the conversation. */
export const contactPanelAtom = atom<boolean>(typeof window !== 'undefined' ? window.innerWidth >= 1280 : true);

const SIGN_KEY = 'atende.signMessage';
function readSign(): boolean {
  try {
    // Signed unless the agent turned it off once: customers should know who is answering.
    return typeof localStorage === 'undefined' || localStorage.getItem(SIGN_KEY) !== 'false';
  } catch {
    return true;
  }
}
const signBase = atom<boolean>(readSign());
/** The agent's "Assinar" choice, kept in the browser so it survives reloads. */
export const signMessageAtom = atom(
  (get) => get(signBase),
  (_get, set, on: boolean) => {
    set(signBase, on);
    try {
      localStorage.setItem(SIGN_KEY, String(on));
    } catch {
      // Private windows may refuse storage; the choice then lasts for this page only.
    }
  },
);

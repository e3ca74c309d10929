import { api } from '@atende/ui-shell/sdk';
import type { Note, NotePage, TicketChoice } from '@atende/plugin-notes/contract';

/** A note is the kernel's internal-note message of a ticket (see plugins/notes). */
export type { Note, NotePage, TicketChoice };

export interface NoteFilters {
  search: string;
  userId: string | null;
  from: string | null;
  to: string | null;
}

const BASE = '/plugins/notes';
const dayStart = (d: string | null) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined);
const dayEnd = (d: string | null) => (d ? new Date(`${d}T23:59:59.999`).toISOString() : undefined);

export const notesKey = ['plugins', 'notes', 'list'] as const;

export const listNotes = (f: NoteFilters, before: string | undefined, signal?: AbortSignal) =>
  api.get<NotePage>(`${BASE}/notes`, { query: { search: f.search || undefined, userId: f.userId ?? undefined, from: dayStart(f.from), to: dayEnd(f.to), before }, signal, silent: true });
export const listUsers = () => api.get<{ id: number; name: string }[]>(`${BASE}/users`, { silent: true });
export const findTickets = (search: string) => api.get<TicketChoice[]>(`${BASE}/tickets`, { query: { search: search || undefined }, background: true });
/** Notes are written and removed by the kernel's message routes. */
export const addNote = (ticketId: number, body: string) => api.post(`/messages/${ticketId}`, { body, isNote: true });
export const removeNote = (id: string) => api.delete(`/messages/${id}`);

import { useEffect, useState, useSyncExternalStore } from 'react';

/**
 * WhatsApp's customer-service window: for 24 hours after the customer's last
 * message the business may write freely; after that (or before they ever
 * wrote) WhatsApp only delivers approved message templates.
 */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export type WindowState =
  | { state: 'unknown' }
  | { state: 'never' }
  | { state: 'closed'; lastAt: number }
  | { state: 'open'; closesAt: number };

export function windowState(lastCustomerMessageAt: string | null | undefined, now: number): WindowState {
  if (lastCustomerMessageAt === undefined) return { state: 'unknown' };
  if (lastCustomerMessageAt === null) return { state: 'never' };
  const at = Date.parse(lastCustomerMessageAt);
  if (!Number.isFinite(at)) return { state: 'unknown' };
  return at + WINDOW_MS <= now ? { state: 'closed', lastAt: at } : { state: 'open', closesAt: at + WINDOW_MS };
}

/** The current time, ticking every `everyMs`, so a window that closes while the ticket is open shows it without a reload. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

// The notice's "choose a template" button and the composer's template button are
// separate components of the channel contract: this tiny store lets one open the other's picker.
let openTicket: number | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
export const pickerStore = {
  open(ticketId: number) {
    openTicket = ticketId;
    emit();
  },
  close() {
    openTicket = null;
    emit();
  },
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
export const usePickerOpen = (ticketId: number) => useSyncExternalStore(subscribe, () => openTicket === ticketId);

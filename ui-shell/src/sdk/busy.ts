import { atom } from 'jotai';
import { atendeStore } from './store.ts';

/** True while the global busy spinner is visible. */
export const busyAtom = atom(false);

const SHOW_AFTER_IDLE_MS = 2000;
const HIDE_AFTER_MS = 1000;
let lastRequestAt = 0;
let hideTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Spec rule (core.md §7): the spinner appears only when more than 2 s passed
 * since the previous request, so bursts of calls while the user works do not
 * flash it; it is hidden 1 s after the call ends.
 */
export function busyRequestStarted(): void {
  const now = Date.now();
  if (now - lastRequestAt > SHOW_AFTER_IDLE_MS) {
    clearTimeout(hideTimer);
    atendeStore.set(busyAtom, true);
  }
  lastRequestAt = now;
}

export function busyRequestEnded(): void {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => atendeStore.set(busyAtom, false), HIDE_AFTER_MS);
}

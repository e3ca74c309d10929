/**
 * "A customer is waiting": what calls the user's attention, from anywhere in
 * the app. Counts per menu entry (the rail's badges; their sum goes in the tab
 * title and on the favicon), the alert sounds (the user's switch in the user
 * menu) and desktop notifications (only while the page is in the background,
 * once the browser allows them).
 */
import { atom, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { getSession } from './session.ts';
import { soundUrl, type SoundKind } from './sounds.ts';
import { atendeStore } from './store.ts';

export type { SoundKind } from './sounds.ts';

/** Menu key (`tickets`, `chat`…) → how many things wait for the user there. */
export const attentionAtom = atom<Record<string, number>>({});

/** Sets the count shown on a menu entry's badge (0 or less removes it). */
export function setAttention(menuKey: string, count: number): void {
  atendeStore.set(attentionAtom, (cur) => {
    const n = Math.max(0, Math.floor(count)) || 0;
    if ((cur[menuKey] ?? 0) === n) return cur;
    const next = { ...cur };
    if (n) next[menuKey] = n;
    else delete next[menuKey];
    return next;
  });
}

/** Keeps a menu entry's count while the component is mounted (undefined = unknown yet, nothing shown). */
export function useAttention(menuKey: string, count: number | undefined): void {
  const set = useSetAtom(attentionAtom);
  useEffect(() => {
    if (count !== undefined) setAttention(menuKey, count);
  }, [menuKey, count]);
  useEffect(() => () => set((cur) => {
    if (!(menuKey in cur)) return cur;
    const next = { ...cur };
    delete next[menuKey];
    return next;
  }), [menuKey, set]);
}

/** Whether the user wants sounds (the user menu's switch; on unless turned off). */
export function soundsEnabled(): boolean {
  return getSession()?.configs?.sounds !== false;
}

/** Two alerts closer than this make one sound. */
const SOUND_GAP_MS = 900;
let lastSound = 0;

/**
 * Plays an alert sound unless the user muted them. The browser may refuse to
 * play before the user has interacted with the page; that is not an error.
 */
export function playSound(kind: SoundKind): void {
  if (!soundsEnabled()) return;
  const now = Date.now();
  if (now - lastSound < SOUND_GAP_MS) return;
  lastSound = now;
  try {
    const audio = new Audio(soundUrl(kind));
    audio.volume = 0.7;
    void audio.play()?.catch(() => undefined);
  } catch {
    // No audio output in this browser.
  }
}

/** The browser's answer about desktop notifications (`unsupported` when it has none). */
export function desktopPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Whether desktop notifications are allowed by the browser and wanted by the user. */
export function desktopNotificationsOn(): boolean {
  return desktopPermission() === 'granted' && getSession()?.configs?.desktopNotifications !== false;
}

/**
 * Asks the browser for desktop notifications. Call it from a click: browsers
 * ignore (or hold against the site) a request nobody asked for.
 */
export async function requestDesktopPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (typeof Notification === 'undefined') return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/** True while the user is looking at the page (visible and focused). */
export function pageWatched(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

export interface DesktopNotice {
  title: string;
  body?: string;
  /** A later notice with the same tag replaces this one (e.g. one per conversation). */
  tag?: string;
  /** Run when the user clicks the notice (the window is focused first). */
  onClick?: () => void;
}

/**
 * Shows a desktop notification while the page is in the background, if the
 * browser allows it and the user wants them. Returns whether one was shown.
 */
export function desktopNotify(notice: DesktopNotice): boolean {
  if (!desktopNotificationsOn() || pageWatched()) return false;
  try {
    const icon = document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.dataset.original ?? document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href;
    // The page plays its own sound (or the user muted it): the system's would be a second one.
    const n = new Notification(notice.title, { body: notice.body, tag: notice.tag, icon, silent: true });
    n.onclick = () => {
      window.focus();
      notice.onClick?.();
      n.close();
    };
    return true;
  } catch {
    // Some browsers only allow notifications from a service worker.
    return false;
  }
}

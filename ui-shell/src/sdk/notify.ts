import { notifications } from '@mantine/notifications';

/** Toast durations of the spec (core.md §7 and §9). */
export const TOAST_SUCCESS_MS = 500;
export const TOAST_ERROR_MS = 1500;

const recent = new Map<string, number>();

/**
 * Concurrent failures (several queries hitting the same 401, a parent and a
 * child route both denied) would stack identical toasts; one is enough.
 */
function isDuplicate(message: string): boolean {
  const now = Date.now();
  const last = recent.get(message);
  recent.set(message, now);
  if (recent.size > 50) recent.clear();
  return last !== undefined && now - last < 1000;
}

function show(message: string, color: string, autoClose: number): void {
  if (!message || isDuplicate(message)) return;
  notifications.show({ message, color, autoClose, withBorder: true });
}

/** Toasts shown at the top of the page (the shell mounts `<Notifications position="top-center">`). */
export const notify = {
  /** Success toast (500 ms). */
  success: (message: string) => show(message, 'teal', TOAST_SUCCESS_MS),
  /** Error toast (1500 ms); server error codes are mapped before reaching here. */
  error: (message: string) => show(message, 'red', TOAST_ERROR_MS),
  /** Warning toast (1500 ms): access and session messages. */
  warning: (message: string) => show(message, 'orange', TOAST_ERROR_MS),
  /** Neutral information (1500 ms). */
  info: (message: string) => show(message, 'blue', TOAST_ERROR_MS),
};

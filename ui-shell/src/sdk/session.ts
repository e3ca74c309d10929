import { atom } from 'jotai';
import { atendeStore } from './store.ts';

/** Profiles of the spec (core.md §1). */
export type Profile = 'user' | 'super' | 'admin' | 'superadmin';

/** Per-user UI preferences kept on the server (`PUT /api/users/<id>/configs`). */
export interface UserConfigs {
  isDark?: boolean;
  filtrosAtendimento?: Record<string, unknown>;
  /** Sound on new tickets and messages; on unless `false`. */
  sounds?: boolean;
  /** Desktop notifications while the page is in the background (when the browser allows them); on unless `false`. */
  desktopNotifications?: boolean;
}

/** Answer of `POST /api/auth/login` (and of `POST /api/auth/refresh_token`). */
export interface LoginAnswer {
  token: string;
  refreshToken: string;
  username: string;
  profile: Profile;
  userId: number;
  tenantId: number;
  queues: unknown[];
  blockWavoip: boolean;
  whatsappAllowed: unknown[];
  email: string;
  configs: UserConfigs;
}

/** The session record kept after login (core.md §3). */
export type Session = LoginAnswer;

const SESSION_KEY = 'session';
// The spec also keeps these as separate browser keys; other tools read them.
const LOOSE_KEYS = ['token', 'refreshToken', 'username', 'profile', 'userId'] as const;

function readStored(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    return typeof s.token === 'string' && s.token ? s : null;
  } catch {
    return null;
  }
}

function writeStored(s: Session | null): void {
  try {
    if (!s) {
      localStorage.removeItem(SESSION_KEY);
      for (const k of LOOSE_KEYS) localStorage.removeItem(k);
      return;
    }
    localStorage.setItem(SESSION_KEY, JSON.stringify(s));
    for (const k of LOOSE_KEYS) localStorage.setItem(k, String(s[k] ?? ''));
  } catch {
    // Private mode or a full quota: the session still lives in memory.
  }
}

/** The current session, or null when logged out. */
export const sessionAtom = atom<Session | null>(readStored());

/**
 * Bumped on every successful login. The shell rebuilds its router and reloads
 * the plugin list when it changes, so nothing cached for a previous user
 * (lazy routes, remote screens) survives into the next session.
 */
export const loginEpochAtom = atom(0);

/** Reads the session outside React. */
export function getSession(): Session | null {
  return atendeStore.get(sessionAtom);
}

/** The bearer token for API calls, or undefined when logged out. */
export function getAccessToken(): string | undefined {
  return getSession()?.token || undefined;
}

/** Starts a session after a successful login. */
export function startSession(answer: LoginAnswer): void {
  writeStored(answer);
  atendeStore.set(sessionAtom, answer);
  atendeStore.set(loginEpochAtom, (n) => n + 1);
}

/** Merges fresh fields (new tokens, refreshed profile, configs) into the session. */
export function updateSession(patch: Partial<Session>): void {
  const cur = getSession();
  if (!cur) return;
  const next = { ...cur, ...patch };
  writeStored(next);
  atendeStore.set(sessionAtom, next);
}

/** Forgets the stored login (logout, 401, session ended). */
export function clearSession(): void {
  writeStored(null);
  atendeStore.set(sessionAtom, null);
}

/** Where a profile lands after login (core.md §6). */
export function homePathFor(profile: Profile | undefined): string {
  if (profile === 'superadmin') return '/assinatura';
  if (profile === 'admin' || profile === 'super') return '/home';
  return '/atendimento';
}

import i18next from 'i18next';
import { busyRequestEnded, busyRequestStarted } from './busy.ts';
import { ApiError, ERR_NETWORK, ERR_TIMEOUT, apiErrorFrom, errorMessage } from './errors.ts';
import { notify } from './notify.ts';
import { clearSession, getAccessToken, getSession, updateSession, type LoginAnswer } from './session.ts';

/** Base of every call: the kernel serves the API on the shell's origin. */
export const API_BASE = '/api';
/** core.md §9: HTTP timeout. */
export const API_TIMEOUT_MS = 20_000;
/** core.md §9: delay between a 401 and the move to the login page. */
export const LOGIN_REDIRECT_DELAY_MS = 2000;

export type QueryValue = string | number | boolean | null | undefined | Array<string | number | boolean>;

export interface RequestOptions {
  /** Query string values; arrays repeat the key, null/undefined are left out. */
  query?: Record<string, QueryValue>;
  /** JSON body (FormData is sent as is, for uploads). */
  body?: unknown;
  signal?: AbortSignal;
  /** Do not toast failures: the caller shows them inline. Session rules (401/403) still apply. */
  silent?: boolean;
  /** Polling and refreshes: no busy spinner and no toasts. */
  background?: boolean;
  /** Overrides the 20 s timeout (uploads). */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

const PUBLIC_HASHES = ['#/login', '#/signup', '#/reset/'];
let redirectTimer: ReturnType<typeof setTimeout> | undefined;

function onPublicPage(): boolean {
  return PUBLIC_HASHES.some((p) => window.location.hash.startsWith(p));
}

/**
 * Ends the session because the server refused it (401 or a real-time
 * `session.ended`): forget the login, tell the user (except when they were
 * logging out anyway) and go to the login page 2 s later (core.md §4, §8).
 */
export function endSessionAndRedirect(message: string | undefined): void {
  clearSession();
  if (message) notify.warning(message);
  clearTimeout(redirectTimer);
  redirectTimer = setTimeout(() => {
    if (!onPublicPage()) window.location.hash = '#/login';
  }, LOGIN_REDIRECT_DELAY_MS);
}

/** Failures already explained to the user (the 401 path toasts on its own). */
const explained = new WeakSet<ApiError>();

let refreshing: Promise<boolean> | null = null;

/**
 * One refresh at a time: when several calls get a 403 together they all wait
 * for the same `POST /auth/refresh_token` instead of racing to rotate it.
 */
function refreshTokenOnce(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = getSession()?.refreshToken;
    if (!refreshToken) return false;
    try {
      const res = await fetchWithTimeout(`${API_BASE}/auth/refresh_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refreshToken }),
      }, API_TIMEOUT_MS);
      if (!res.ok) return false;
      const answer = (await res.json()) as Partial<LoginAnswer>;
      if (!answer.token) return false;
      updateSession(answer);
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Seconds-since-epoch expiry of a JWT access token, if it is one. */
function tokenExpiry(token: string): number | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Access tokens are short-lived (the kernel answers an expired one with a 401,
 * which ends the session): renew it shortly before it expires, or on return
 * to a tab left open, as long as the refresh token is valid. Also used by the
 * real-time client before it reconnects.
 */
export async function ensureFreshToken(): Promise<void> {
  if (tokenNeedsRefresh()) await refreshTokenOnce();
}

function tokenNeedsRefresh(): boolean {
  const s = getSession();
  if (!s?.token || !s.refreshToken) return false;
  const exp = tokenExpiry(s.token);
  return exp !== undefined && exp * 1000 - Date.now() < 60_000;
}

async function fetchWithTimeout(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signals = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  try {
    return await fetch(url, { ...init, signal: signals });
  } catch (e) {
    if (signal?.aborted) throw e; // the caller cancelled (e.g. a query unmounted): not an error to show
    if (timeout.signal.aborted) throw new ApiError(0, ERR_TIMEOUT, 'timeout');
    throw new ApiError(0, ERR_NETWORK, e instanceof Error ? e.message : 'network');
  } finally {
    clearTimeout(timer);
  }
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((x) => qs.append(k, String(x)));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return s ? `${url}?${s}` : url;
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function send(method: string, path: string, opts: RequestOptions, retried: boolean): Promise<unknown> {
  const isAuthCall = path.startsWith('/auth/login') || path.startsWith('/auth/refresh_token');
  // Awaited only when a refresh is due: an `await` even of nothing would hold the request until the
  // current task ends, and the first screen's requests start while the page's code is still evaluating (U1).
  if (!isAuthCall && tokenNeedsRefresh()) await refreshTokenOnce();
  const token = getAccessToken();
  const isForm = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': i18next.language || 'pt', ...opts.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined && !isForm) headers['content-type'] = 'application/json';

  const res = await fetchWithTimeout(buildUrl(path, opts.query), {
    method,
    headers,
    body: opts.body === undefined ? undefined : isForm ? (opts.body as FormData) : JSON.stringify(opts.body),
  }, opts.timeoutMs ?? API_TIMEOUT_MS, opts.signal);
  const data = await parseBody(res);
  if (res.ok) return data;

  const err = apiErrorFrom(res.status, data);
  if (res.status === 401 && !isAuthCall) {
    const isLogout = path.startsWith('/auth/logout');
    endSessionAndRedirect(isLogout ? undefined : errorMessage(err));
    explained.add(err);
    throw err;
  }
  if (res.status === 403 && !retried && !isAuthCall && getSession()?.refreshToken) {
    // core.md §4: a 403 triggers one token refresh, then the call is retried once.
    if (await refreshTokenOnce()) return send(method, path, opts, true);
  }
  throw err;
}

/**
 * Calls the API: `/api` + path, bearer token, 20 s timeout, spinner and toast
 * rules of the spec. Resolves with the parsed JSON; rejects with an ApiError
 * `{status, code, message}` for any non-2xx answer, network failure or timeout.
 */
export async function request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const quiet = opts.background === true;
  if (!quiet) busyRequestStarted();
  try {
    return (await send(method, path, opts, false)) as T;
  } catch (e) {
    const cancelled = opts.signal?.aborted === true;
    const alreadyShown = e instanceof ApiError && explained.has(e);
    if (!cancelled && !quiet && !opts.silent && !alreadyShown) notify.error(errorMessage(e));
    throw e;
  } finally {
    if (!quiet) busyRequestEnded();
  }
}

/** The API client shared by the shell and every remote. */
export const api = {
  get: <T = unknown>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, opts),
  post: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body }),
  put: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, { ...opts, body }),
  delete: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
  request,
};

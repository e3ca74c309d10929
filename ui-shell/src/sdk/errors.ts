import i18next from 'i18next';

/** What a failed API call rejects with. */
export class ApiError extends Error {
  /** HTTP status; 0 for network failures and timeouts. */
  readonly status: number;
  /** The server's `error` field when it is a catalogue code (e.g. `ERR_NO_PERMISSION`). */
  readonly code: string | undefined;
  /** The parsed answer body, for callers needing extra fields (e.g. the existing ticket id). */
  readonly data: unknown;

  constructor(status: number, code: string | undefined, message: string, data?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

/** Client-side failure codes (no server answer). */
export const ERR_NETWORK = 'ERR_NETWORK';
export const ERR_TIMEOUT = 'ERR_TIMEOUT';

const CODE_RE = /^[A-Z][A-Z0-9_]+$/;

/** Server text of an answer: `error` (when not a code), `msg` or `message`. */
function serverText(data: unknown): string | undefined {
  if (!data || typeof data !== 'object') return typeof data === 'string' && data.trim() ? data : undefined;
  const d = data as Record<string, unknown>;
  for (const k of ['message', 'msg', 'error'] as const) {
    const v = d[k];
    if (typeof v === 'string' && v.trim() && !(k === 'error' && CODE_RE.test(v))) return v;
  }
  return undefined;
}

/** Builds an ApiError from a non-2xx answer. */
export function apiErrorFrom(status: number, data: unknown): ApiError {
  const raw = data && typeof data === 'object' ? (data as Record<string, unknown>).error : undefined;
  const code = typeof raw === 'string' && CODE_RE.test(raw) ? raw : undefined;
  return new ApiError(status, code, serverText(data) ?? code ?? '', data);
}

/**
 * The text to show for a failure (core.md §8): a known code maps to the
 * catalogue (`errors.<CODE>`, in the user's language); an unknown code shows
 * the server text; no code at all shows 'Ocorreu um erro não identificado.'.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === ERR_NETWORK) return i18next.t('http.network');
    if (err.code === ERR_TIMEOUT) return i18next.t('http.timeout');
    if (err.code && i18next.exists(`errors.${err.code}`)) {
      const params = err.data && typeof err.data === 'object' ? (err.data as Record<string, unknown>) : {};
      const nested = params.params && typeof params.params === 'object' ? (params.params as Record<string, unknown>) : {};
      const text = i18next.t(`errors.${err.code}`, { ...params, ...nested });
      // A template whose values the server did not send reads worse than the server's own text.
      if (!text.includes('{{')) return text;
    }
    const server = serverText(err.data);
    if (server) return server;
    if (err.code) return err.code;
    return i18next.t('http.unknown');
  }
  return i18next.t('http.unknown');
}

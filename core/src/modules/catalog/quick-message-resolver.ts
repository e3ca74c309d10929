import { AppError } from '../../errors.ts';

/**
 * The slash rule for quick messages (spec §5): an agent types `/key`; the key
 * is matched against the tenant's active quick messages by prefix, case
 * insensitive. An exact key wins; a single prefix match is taken; several
 * matches without an exact key are ambiguous; none is an error; an empty
 * message is refused.
 */

export interface QuickMessageLike {
  id: number;
  key: string;
}

/** The shortcut typed after the slash (first word), or ERR_INVALID_MESSAGE for an empty message. */
export function slashKey(text: string | null | undefined): string {
  const trimmed = (text ?? '').trim();
  const body = trimmed.startsWith('/') ? trimmed.slice(1) : trimmed;
  const key = body.trim().split(/\s+/)[0] ?? '';
  if (!key) throw new AppError('ERR_INVALID_MESSAGE');
  return key;
}

/** Picks the quick message a shortcut designates among candidates (already limited to active ones). */
export function pickQuickMessage<T extends QuickMessageLike>(key: string, candidates: readonly T[]): T {
  const wanted = key.toLowerCase();
  const matches = candidates.filter((c) => c.key.toLowerCase().startsWith(wanted));
  const exact = matches.filter((c) => c.key.toLowerCase() === wanted);
  if (exact.length === 1) return exact[0];
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw new AppError('ERR_QUICK_MESSAGE_NOT_FOUND');
  throw new AppError('ERR_QUICK_MESSAGE_AMBIGUOUS', {}, { candidates: matches.slice(0, 20).map((c) => ({ id: c.id, key: c.key })) });
}

/** Both steps: the quick message a typed `/key` text designates. */
export function resolveQuickMessage<T extends QuickMessageLike>(text: string | null | undefined, candidates: readonly T[]): T {
  return pickQuickMessage(slashKey(text), candidates);
}

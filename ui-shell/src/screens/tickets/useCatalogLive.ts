import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { realtime } from '@atende/ui-shell/sdk';

/**
 * What an admin changes (quick messages, queues, tags, users) reaches the agent screens that are open
 * (issue U2 #6): each event drops the cached lists that show it, so the next look (or the one on screen)
 * asks again. Matching on the key's words keeps any list of those things in the ticket screens fresh,
 * whichever component holds it.
 */
const WORDS: Record<string, string[]> = {
  queue: ['queues', 'list'],
  tag: ['tags', 'contact'],
  quickMessage: ['quick-messages'],
  quick_message: ['quick-messages'],
  user: ['users', 'list'],
};

function invalidate(qc: QueryClient, kind: string) {
  const words = WORDS[kind] ?? [];
  void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'tickets' && q.queryKey.some((k) => typeof k === 'string' && words.includes(k)) });
}

export function useCatalogLive(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const offs = Object.keys(WORDS).flatMap((kind) => ['created', 'updated', 'deleted'].map((action) => realtime.on(`${kind}.${action}`, () => invalidate(qc, kind))));
    return () => offs.forEach((off) => off());
  }, [qc]);
}

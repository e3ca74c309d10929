import { useAtomValue } from 'jotai';
import { useMemo, type ComponentType } from 'react';
import { ErrorBoundary, ErrorBox, uiPluginsAtom, type ComposerExtensionProps, type ComposerSendPayload } from '@atende/ui-shell/sdk';
import type { Message, Ticket } from './api.ts';

/**
 * The composer extensions of the ticket's channel type (`UiChannelType`
 * `composerAction` / `composerNotice` from the channel plugin's remote),
 * each in its own error boundary so a failing remote never takes the
 * composer down.
 */

/** The newest customer message's date among the loaded ones; unknown (`undefined`) when older pages may hold it. */
export function lastCustomerMessageAt(messages: Message[], hasOlder: boolean): string | null | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!m.fromMe && !m.isNote && !m.local) return m.timestamp ?? m.createdAt;
  }
  return hasOlder ? undefined : null;
}

export interface ChannelComposerProps {
  part: 'composerAction' | 'composerNotice';
  ticket: Ticket;
  messages: Message[];
  hasOlder: boolean;
  send(payload: ComposerSendPayload): Promise<void>;
}

export function ChannelComposerPart({ part, ticket, messages, hasOlder, send }: ChannelComposerProps) {
  const { plugins } = useAtomValue(uiPluginsAtom);
  const Part = useMemo(() => {
    for (const p of plugins) for (const c of p.channels ?? []) if (c.type === ticket.channel && c[part]) return c[part] as ComponentType<ComposerExtensionProps>;
    return undefined;
  }, [plugins, ticket.channel, part]);
  const last = lastCustomerMessageAt(messages, hasOlder);
  const composerTicket = useMemo(
    () => ({ id: ticket.id, status: ticket.status, channelId: ticket.channelId, channel: ticket.channel, contactName: ticket.contact?.name ?? ticket.name ?? null }),
    [ticket.id, ticket.status, ticket.channelId, ticket.channel, ticket.contact?.name, ticket.name],
  );
  if (!Part) return null;
  return (
    <ErrorBoundary fallback={(error, reset) => <ErrorBox compact error={error} onRetry={reset} />}>
      <Part ticket={composerTicket} lastCustomerMessageAt={last} send={send} />
    </ErrorBoundary>
  );
}

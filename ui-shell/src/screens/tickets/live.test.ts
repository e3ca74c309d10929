import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Message, MessagesPage } from './api.ts';
import { applyMessage, messagesKey } from './live.ts';

const message = (patch: Partial<Message>): Message => ({
  id: '7', ticketId: 1, contactId: 1, userId: 2, fromMe: true, isNote: false, body: 'PROMO de hoje', type: 'chat',
  mediaUrl: null, mediaName: null, mediaType: null, status: 'pending', failureReason: null, errorCode: null, quotedMsgId: null,
  scheduleDate: null, edited: false, isDeleted: false, reactions: [], timestamp: '2026-11-26T20:00:00.000Z', createdAt: '2026-11-26T20:00:00.000Z', ...patch,
});

function conversation(...messages: Message[]): { qc: QueryClient; shown: () => Message } {
  const qc = new QueryClient();
  qc.setQueryData<InfiniteData<MessagesPage>>(messagesKey(1, false), { pages: [{ messages, hasMore: false, messagesOffLine: [] }], pageParams: [1] });
  return { qc, shown: () => qc.getQueryData<InfiniteData<MessagesPage>>(messagesKey(1, false))!.pages[0]!.messages[0]! };
}

describe('live message updates', () => {
  const refused = message({ status: 'failed', failureReason: 'O provedor simulado recusou a mensagem', errorCode: 'ERR_SENDING_WAPP_MSG' });

  it('a refusal that arrives on the socket before the send answer stays shown with its reason', () => {
    const c = conversation(refused);
    applyMessage(c.qc, message({ status: 'pending' }));
    expect(c.shown()).toMatchObject({ status: 'failed', failureReason: 'O provedor simulado recusou a mensagem', errorCode: 'ERR_SENDING_WAPP_MSG' });
  });

  it('the answer to a retry takes a failed message back to pending, and its acks follow', () => {
    const c = conversation(refused);
    applyMessage(c.qc, message({ status: 'pending' }), { retried: true });
    expect(c.shown()).toMatchObject({ status: 'pending', failureReason: null });
    applyMessage(c.qc, message({ status: 'sent' }));
    expect(c.shown().status).toBe('sent');
  });

  it('an ack never goes backwards, except to failed', () => {
    const c = conversation(message({ status: 'delivered' }));
    applyMessage(c.qc, message({ status: 'pending' }));
    expect(c.shown().status).toBe('delivered');
    applyMessage(c.qc, message({ status: 'failed', failureReason: 'x' }));
    expect(c.shown().status).toBe('failed');
  });
});

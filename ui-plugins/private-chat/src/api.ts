import { api } from '@atende/ui-shell/sdk';
import type { ChatMessage, ChatTeam, ChatUser, Conversations } from '@atende/plugin-private-chat/contract';

export type { ChatMessage, ChatTeam, ChatUser, Conversations };
/** A conversation: with a person or with a team. */
export type Target = { kind: 'users' | 'teams'; id: number };

const BASE = '/plugins/private-chat';
export const chatKey = ['plugins', 'private-chat'] as const;
export const conversationsKey = [...chatKey, 'conversations'] as const;
export const messagesKey = (t: Target) => [...chatKey, 'messages', t.kind, t.id] as const;

export const getConversations = (signal?: AbortSignal) => api.get<Conversations>(`${BASE}/conversations`, { signal, silent: true });
export const getMessages = (t: Target, signal?: AbortSignal) => api.get<{ messages: ChatMessage[]; hasMore: boolean; limit: number }>(`${BASE}/${t.kind}/${t.id}/messages`, { signal });
export const sendMessage = (t: Target, body: string) => api.post<ChatMessage>(`${BASE}/${t.kind}/${t.id}/messages`, { body });
export const markRead = (t: Target) => api.put(`${BASE}/${t.kind}/${t.id}/read`, {}, { silent: true });

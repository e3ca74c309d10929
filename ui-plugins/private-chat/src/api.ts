import { api } from '@atende/ui-shell/sdk';

export interface ChatUser {
  id: number;
  name: string;
  email: string;
  profile: string;
  isOnline: boolean;
  lastSeenAt: string | null;
  unread: number;
  lastMessage: string | null;
  lastMessageAt: string | null;
  lastMessageFromMe: boolean;
}
export interface ChatTeam {
  id: number;
  name: string;
  members: number;
  unread: number;
  lastMessage: string | null;
  lastMessageAt: string | null;
  lastMessageFrom: string | null;
}
export interface Conversations {
  users: ChatUser[];
  teams: ChatTeam[];
  unreadCount: number;
  notificationCount: number;
  messageLimit: number;
}
export interface ChatMessage {
  id: number;
  fromUserId: number;
  fromName: string | null;
  toUserId: number | null;
  teamId: number | null;
  body: string;
  readAt: string | null;
  createdAt: string;
}
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

/**
 * The kernel's own events in the install-wide `AtendeEvents` map (plugins add
 * theirs from their contracts). Every event a browser or a plugin can
 * receive is named here with its payload; `ctx.events` and the shell's
 * real-time hook are typed by this map.
 */
import type { TicketOut, MessageOut } from '../modules/conversations/serialize.ts';
import type { BulkBatchStatus } from '../sdk/types.ts';

/** A user as the events about users carry them (never the e-mail). */
export interface UserEventData {
  id: number;
  name: string;
  profile: string;
  queues: number[];
  isOnline: boolean;
  lastSeenAt: string | null;
}

/** A message event: the message and the ticket as it stands after it. */
export interface MessageEventData {
  message: MessageOut;
  ticket?: TicketOut;
}

declare module '../sdk/contract.ts' {
  interface AtendeEvents {
    'ticket.created': { ticket: TicketOut };
    'ticket.updated': { ticket: TicketOut };
    'ticket.deleted': { ticket: TicketOut };
    /** Sent to a socket instead of `ticket.updated` when the ticket left what its user may see. */
    'ticket.removed': { id: number };
    'tickets.bulk_progress': { action: string; done: number; total: number };
    'message.created': MessageEventData;
    'message.updated': MessageEventData;
    'message.deleted': MessageEventData;
    'message.ack_updated': MessageEventData;
    'contact.created': Record<string, unknown> & { id: number };
    'contact.updated': Record<string, unknown> & { id: number };
    'contact.deleted': { id: number };
    'contacts.merged': Record<string, unknown>;
    'contacts.import_progress': Record<string, unknown> & { jobId: string };
    'contacts.import_finished': Record<string, unknown> & { jobId: string; status: string };
    'contacts.imported': { jobId: string; imported: number };
    'channel.created': { channel: Record<string, unknown> & { id: number } };
    'channel.updated': { channel: Record<string, unknown> & { id: number } };
    'channel.deleted': { id: number };
    'channel.history_progress': Record<string, unknown> & { importId: string; channelId: number };
    'user.created': UserEventData;
    'user.updated': UserEventData;
    'user.deleted': { id: number };
    'user.status_updated': { id: number; isOnline: boolean; presence?: 'online' | 'paused' | 'offline' };
    'queue.created': Record<string, unknown> & { id: number };
    'queue.updated': Record<string, unknown> & { id: number };
    'queue.deleted': { id: number };
    'tag.created': Record<string, unknown> & { id: number };
    'tag.updated': Record<string, unknown> & { id: number };
    'tag.deleted': { id: number };
    'quick_message.created': Record<string, unknown> & { id: number };
    'quick_message.updated': Record<string, unknown> & { id: number };
    'quick_message.deleted': { id: number };
    'settings.updated': Record<string, unknown>;
    'tenant.updated': { id: number; status: string; blocked: boolean; menus: Record<string, boolean> };
    'tenant.colors_updated': unknown;
    'tenant.business_hours_updated': Record<string, unknown>;
    'plugins.changed': { id: string; enabled: boolean };
    'plugin.settings_updated': { id: string; settings: Record<string, unknown> };
    'bulk.progress': { batch: BulkBatchStatus; source: string };
    'bulk.finished': { batch: BulkBatchStatus; source: string };
    'server.restarting': Record<string, never>;
  }
}

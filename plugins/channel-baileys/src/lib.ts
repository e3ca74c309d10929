import type * as Baileys from '@whiskeysockets/baileys';

/**
 * Baileys, loaded on first use. The library pulls in protobufs, libsignal and
 * a Rust bridge (about a second of start-up): every app that merely lists the
 * plugin (tests, API-only nodes) would pay for it at boot, so it loads when a
 * session starts or a message needs parsing.
 */
export type BaileysLib = typeof Baileys;

let loaded: BaileysLib | undefined;
let loading: Promise<BaileysLib> | undefined;

export async function loadBaileys(): Promise<BaileysLib> {
  if (loaded) return loaded;
  loading ??= import('@whiskeysockets/baileys').then((m) => (loaded = m));
  return loading;
}

/** JSON that keeps Buffers and Uint8Arrays (keys, creds) intact, as Baileys' own file store writes it. */
export function toStoredJson(lib: BaileysLib, value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null, lib.BufferJSON.replacer));
}

export function fromStoredJson<T>(lib: BaileysLib, value: unknown): T {
  return JSON.parse(JSON.stringify(value ?? null), lib.BufferJSON.reviver) as T;
}

/** The phone number part of a JID (`5511999990000:12@s.whatsapp.net` → `5511999990000`). */
export function jidUser(jid: string | null | undefined): string {
  return (jid ?? '').split('@')[0]?.split(':')[0] ?? '';
}

export const isGroupJid = (jid: string | null | undefined) => !!jid?.endsWith('@g.us');
export const isLidJid = (jid: string | null | undefined) => !!jid?.endsWith('@lid');
export const isPhoneJid = (jid: string | null | undefined) => !!jid?.endsWith('@s.whatsapp.net');

/**
 * The kernel's identity for a WhatsApp address: bare digits for a phone
 * number (what the kernel also stores as the contact's number), the full JID
 * for LIDs and groups, which are not phone numbers.
 */
export function identityOf(jid: string): string {
  return isPhoneJid(jid) ? jidUser(jid) : jid.replace(/:\d+@/, '@');
}

/** Back from an identity to the JID Baileys sends to. */
export function jidOf(externalId: string): string {
  if (externalId.includes('@')) return externalId;
  return `${externalId.replace(/\D/g, '')}@s.whatsapp.net`;
}

/** Provider errors from Baileys are Boom errors; their HTTP-like status says what happened. */
export function statusCodeOf(err: unknown): number | undefined {
  const e = err as { output?: { statusCode?: number }; statusCode?: number } | undefined;
  return e?.output?.statusCode ?? e?.statusCode;
}

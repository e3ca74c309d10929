import { Avatar, type AvatarProps } from '@mantine/core';
import { IconBrandInstagram, IconBrandMessenger, IconBrandTelegram, IconBrandWhatsapp, IconMail, IconMessageCircle, IconFlask } from '@tabler/icons-react';
import type { Ticket } from './api.ts';

/** Two initials from a name ("Maria da Silva" → "MS"). */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter((p) => /[\p{L}\p{N}]/u.test(p[0] ?? ''));
  if (!parts.length) return '?';
  const first = parts[0]![0]!;
  const last = parts.length > 1 ? parts[parts.length - 1]![0]! : '';
  return (first + last).toUpperCase();
}

const AVATAR_COLORS = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'indigo', 'lime', 'violet', 'red'];

/** A stable colour per contact so the list is easy to scan. */
export function colorFor(seed: string | number): string {
  const s = String(seed);
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return AVATAR_COLORS[Math.abs(h) % AVATAR_COLORS.length]!;
}

export function ContactAvatar({ name, src, seed, ...rest }: { name: string | null | undefined; src?: string | null; seed: string | number } & AvatarProps) {
  return (
    <Avatar src={src || null} color={colorFor(seed)} variant="light" radius="xl" alt={name ?? ''} {...rest}>
      {initials(name)}
    </Avatar>
  );
}

/** The icon of a channel type. */
export function ChannelIcon({ type, size = 14 }: { type: string | null | undefined; size?: number }) {
  const t = (type ?? '').toLowerCase();
  if (t.includes('whats') || t === 'baileys' || t === 'waba' || t === 'meta' || t === 'wuzapi' || t === 'evolution') return <IconBrandWhatsapp size={size} color="#25d366" />;
  if (t.includes('insta')) return <IconBrandInstagram size={size} color="#d6249f" />;
  if (t.includes('messenger') || t.includes('facebook')) return <IconBrandMessenger size={size} color="#0084ff" />;
  if (t.includes('telegram')) return <IconBrandTelegram size={size} color="#229ed9" />;
  if (t.includes('mail')) return <IconMail size={size} />;
  if (t === 'sandbox') return <IconFlask size={size} color="var(--mantine-color-violet-6)" />;
  return <IconMessageCircle size={size} />;
}

export const ticketName = (t: Pick<Ticket, 'contact' | 'name'> | undefined) => t?.contact?.name ?? t?.name ?? '';

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/**
 * Date formatters by language and options, made once: `toLocale…String` builds
 * a new formatter on every call, which the ticket list and the conversation do
 * for each row and bubble they draw. Same output, a fraction of the work.
 */
const FORMATS = {
  time: { hour: '2-digit', minute: '2-digit', hour12: false },
  weekday: { weekday: 'short' },
  short: { day: '2-digit', month: '2-digit', year: '2-digit' },
  long: { day: '2-digit', month: 'long', year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters = new Map<string, Intl.DateTimeFormat>();
function format(d: Date, lng: string, kind: keyof typeof FORMATS): string {
  const key = `${lng}|${kind}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(lng, FORMATS[kind])));
  return f.format(d);
}

/** Time of the last activity as WhatsApp shows it: 14:32, "Ontem", weekday, or a date. */
export function relativeTime(value: string | null | undefined, lng: string, yesterday: string): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const now = new Date();
  if (sameDay(d, now)) return format(d, lng, 'time');
  const y = new Date(now);
  y.setDate(now.getDate() - 1);
  if (sameDay(d, y)) return yesterday;
  if (now.getTime() - d.getTime() < 6 * 86_400_000) return format(d, lng, 'weekday').replace('.', '');
  return format(d, lng, 'short');
}

export function timeOf(value: string, lng: string): string {
  return format(new Date(value), lng, 'time');
}

/** "Hoje", "Ontem" or the full date: the day separators of the conversation. */
export function dayLabel(value: string, lng: string, today: string, yesterday: string): string {
  const d = new Date(value);
  const now = new Date();
  if (sameDay(d, now)) return today;
  const y = new Date(now);
  y.setDate(now.getDate() - 1);
  if (sameDay(d, y)) return yesterday;
  return format(d, lng, 'long');
}

export const dayKey = (value: string) => {
  const d = new Date(value);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

/** Preferred language tag for Intl (the catalogues use `pt`, `en-us`…). */
export const intlLang = (lng: string) => (lng === 'pt' ? 'pt-BR' : lng);

/**
 * The signature the server writes when a reply is signed (`signMessage`,
 * `ForceSignature`): the agent's name in WhatsApp bold on a line of its own.
 * The composer's sending copy is written the same way, so its bubble does not
 * change when the stored one replaces it.
 */
const SIGNATURE = /^\*([^*\n]+)\*:\n/;
export const signBody = (name: string, body: string) => `*${name}*:\n${body}`;
/** The signer's name and the text after the signature line, or undefined for an unsigned text. */
export function splitSignature(body: string): { name: string; text: string } | undefined {
  const m = SIGNATURE.exec(body);
  return m ? { name: m[1]!, text: body.slice(m[0].length) } : undefined;
}
/** A text as one line of a list or search result: a signature reads "Ana: texto", never `*Ana*:` (older previews were stored so). */
export function previewText(body: string | null | undefined): string {
  if (!body) return '';
  const sig = splitSignature(body);
  return sig ? `${sig.name}: ${sig.text}` : body;
}

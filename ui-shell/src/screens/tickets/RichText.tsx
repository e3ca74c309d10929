import { Anchor } from '@mantine/core';
import { IconCopy, IconPhone } from '@tabler/icons-react';
import { Fragment, memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhone, notify } from '@atende/ui-shell/sdk';
import { Menu } from '../../ui/overlays.tsx';

/** A piece of a message's text: plain, a web address, an e-mail or a phone number. */
export type Piece = { kind: 'text' | 'url' | 'email' | 'phone'; text: string; href?: string };

// Web addresses (with a scheme or starting www.), e-mails, and phone numbers with an area code
// (+55 11 98888-7777, (11) 98888-7777, 11 3333-4444, +1 415 555 2671).
const URL_PART = String.raw`(?:https?:\/\/|www\.)[^\s<>"']+`;
const EMAIL_PART = String.raw`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`;
const PHONE_PART = String.raw`(?<![\w/.,+-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,3}\)|\d{2,3})[\s.-]?\d{3,5}[\s.-]?\d{4}(?![\w/])`;
const TOKENS = new RegExp(`(${URL_PART})|(${EMAIL_PART})|(${PHONE_PART})`, 'g');
/** Punctuation that ends a sentence, not the address it follows. */
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** Splits a text into plain runs and clickable addresses, e-mails and phone numbers. */
export function linkify(text: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKENS)) {
    let token = m[0];
    let kind: Piece['kind'] = m[1] ? 'url' : m[2] ? 'email' : 'phone';
    let href: string | undefined;
    if (kind === 'url') {
      const trimmed = m[0].replace(TRAILING, '');
      token = trimmed;
      href = /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
    } else if (kind === 'email') href = `mailto:${token}`;
    else {
      const digits = token.replace(/\D/g, '');
      // 10 to 13 digits: an area code and a number, with or without the country code; shorter runs are dates, amounts, codes.
      if (digits.length < 10 || digits.length > 13) kind = 'text';
      else href = `tel:+${token.trim().startsWith('+') ? digits : digits.length <= 11 ? `55${digits}` : digits}`;
    }
    if (kind === 'text') continue;
    const start = m.index!;
    if (start > last) out.push({ kind: 'text', text: text.slice(last, start) });
    out.push({ kind, text: token, href });
    last = start + token.length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

function PhoneLink({ text, href }: { text: string; href: string }) {
  const { t } = useTranslation();
  const number = href.slice('tel:'.length);
  return (
    <Menu position="bottom-start" shadow="md" width={220} withinPortal>
      <Menu.Target>
        <Anchor component="button" type="button" inherit className="atende-msg-link" data-testid="message-phone">{text}</Anchor>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{formatPhone(number)}</Menu.Label>
        <Menu.Item leftSection={<IconPhone size={15} />} component="a" href={href}>{t('media.callNumber')}</Menu.Item>
        <Menu.Item leftSection={<IconCopy size={15} />} onClick={() => void navigator.clipboard?.writeText(number).then(() => notify.success(t('media.copied')))}>{t('media.copyNumber')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** A message's text with its web addresses, e-mails and phone numbers clickable, as WhatsApp shows them. */
export const RichText = memo(function RichText({ text }: { text: string }): ReactNode {
  const pieces = linkify(text);
  return pieces.map((p, i) => (
    <Fragment key={i}>
      {p.kind === 'text' ? p.text
        : p.kind === 'phone' ? <PhoneLink text={p.text} href={p.href!} />
        : <Anchor href={p.href} target={p.kind === 'url' ? '_blank' : undefined} rel="noopener noreferrer" inherit className="atende-msg-link" data-testid={`message-${p.kind}`}>{p.text}</Anchor>}
    </Fragment>
  ));
});

/**
 * The composer's full emoji picker: every emoji, by category, with search in
 * the user's language, skin tones and the most used first. It is the
 * `emoji-picker-element` web component, fetched with this module when the
 * picker first opens; its data (the emoji names and keywords of one language,
 * ~80 KB gzip) is one file of our build, asked for then and kept by the
 * component in IndexedDB. Nothing of it is in the first load (docs/performance.md U1).
 */
import { useComputedColorScheme } from '@mantine/core';
import { Picker } from 'emoji-picker-element';
import type { EmojiClickEvent } from 'emoji-picker-element/shared';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

type UrlModule = () => Promise<{ default: string }>;

/** Emoji names and keywords per language of the product (regional variants use their base language's). */
const DATA: Record<string, UrlModule> = {
  pt: () => import('emoji-picker-element-data/pt/cldr/data.json?url'),
  en: () => import('emoji-picker-element-data/en/cldr/data.json?url'),
  es: () => import('emoji-picker-element-data/es/cldr/data.json?url'),
  de: () => import('emoji-picker-element-data/de/cldr/data.json?url'),
  fr: () => import('emoji-picker-element-data/fr/cldr/data.json?url'),
  it: () => import('emoji-picker-element-data/it/cldr/data.json?url'),
  pl: () => import('emoji-picker-element-data/pl/cldr/data.json?url'),
  ru: () => import('emoji-picker-element-data/ru/cldr/data.json?url'),
};
type Texts = ConstructorParameters<typeof Picker>[0] extends infer O ? (O extends { i18n?: infer I } ? I : never) : never;
/** The picker's own labels (search, categories, skin tones). */
const TEXTS: Record<string, () => Promise<{ default: Texts }>> = {
  pt: () => import('emoji-picker-element/i18n/pt_BR.js'),
  en: () => import('emoji-picker-element/i18n/en.js'),
  es: () => import('emoji-picker-element/i18n/es.js'),
  de: () => import('emoji-picker-element/i18n/de.js'),
  fr: () => import('emoji-picker-element/i18n/fr.js'),
  it: () => import('emoji-picker-element/i18n/it.js'),
  pl: () => import('emoji-picker-element/i18n/pl.js'),
  ru: () => import('emoji-picker-element/i18n/ru_RU.js'),
};

export default function EmojiPicker({ onPick }: { onPick: (emoji: string) => void }) {
  const { i18n } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const host = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const lang = i18n.language.split('-')[0]!;
  const base = DATA[lang] ? lang : 'en';

  useEffect(() => {
    let picker: Picker | undefined;
    let live = true;
    void Promise.all([DATA[base]!(), TEXTS[base]!()]).then(([data, texts]) => {
      if (!live || !host.current) return;
      picker = new Picker({ locale: base, dataSource: data.default, i18n: texts.default });
      picker.classList.add(scheme);
      picker.style.width = '100%';
      picker.style.height = '100%';
      picker.style.setProperty('--num-columns', '8');
      picker.setAttribute('data-testid', 'emoji-picker');
      picker.addEventListener('emoji-click', (e: EmojiClickEvent) => {
        if (e.detail.unicode) pick.current(e.detail.unicode);
      });
      host.current.replaceChildren(picker);
      // The search field first, as the agent types to find one.
      requestAnimationFrame(() => picker?.shadowRoot?.querySelector<HTMLInputElement>('input[type="search"]')?.focus());
    });
    return () => {
      live = false;
      picker?.remove();
    };
  }, [base]);

  useEffect(() => {
    const el = host.current?.firstElementChild;
    if (!el) return;
    el.classList.toggle('dark', scheme === 'dark');
    el.classList.toggle('light', scheme !== 'dark');
  }, [scheme]);

  return <div ref={host} style={{ width: 352, height: 380, display: 'grid' }} />;
}

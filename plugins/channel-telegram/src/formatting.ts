/**
 * Message text in Atende is written the WhatsApp way: `*bold*`, `_italic_`,
 * `~strike~`, `` `code` `` and ```` ```block``` ````. The agent's signature
 * (`*Name*:` on its own line), quick messages and templates use it. Telegram
 * shows those markers as they are unless it is told what they mean, so the
 * text goes out without them and with Telegram's `entities` (ranges in UTF-16
 * code units, which is what JavaScript string indices are). Plain text is not
 * escaped nor parsed by Telegram, so a customer's name with a `_` or `*` in it
 * can never make a send fail, as it could with `parse_mode`.
 */

export interface TextEntity {
  type: 'bold' | 'italic' | 'strikethrough' | 'code' | 'pre';
  offset: number;
  length: number;
}

export interface FormattedText {
  text: string;
  entities: TextEntity[];
}

/** A marker opens after the start, a space or punctuation, and closes before the end, a space or punctuation (WhatsApp's rule). */
const EDGE_BEFORE = '(^|[^\\p{L}\\p{N}])';
const EDGE_AFTER = '(?=$|[^\\p{L}\\p{N}])';
const esc = (s: string) => s.replace(/\*/g, "\\*"); // only `*` is special among the markers (and the u flag refuses needless escapes)

const RULES: Array<{ type: TextEntity['type']; re: RegExp; marker: number }> = [
  // Blocks first: what is inside a block or inline code is not formatted further.
  { type: 'pre', re: /()```([\s\S]+?)```/gu, marker: 3 },
  { type: 'code', re: /()`([^`\n]+)`/gu, marker: 1 },
  ...(['bold', 'italic', 'strikethrough'] as const).map((type, i) => {
    const m = esc('*_~'[i]!);
    return { type, re: new RegExp(`${EDGE_BEFORE}${m}(?=\\S)([^\\n${m}]*?[^\\s${m}])${m}${EDGE_AFTER}`, 'gu'), marker: 1 };
  }),
];

/** Removes `count` characters at `at`, moving or shrinking the entities found so far. */
function cut(f: FormattedText, at: number, count: number): void {
  f.text = f.text.slice(0, at) + f.text.slice(at + count);
  for (const e of f.entities) {
    if (e.offset >= at + count) e.offset -= count;
    else if (e.offset + e.length > at) e.length -= Math.min(count, e.offset + e.length - at);
  }
}

/** WhatsApp-style markup to Telegram text and entities. */
export function toTelegram(input: string): FormattedText {
  const f: FormattedText = { text: input, entities: [] };
  const literal: TextEntity[] = [];
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = rule.re.exec(f.text))) {
      const open = m.index + m[1]!.length;
      const inner = m[2]!;
      const close = open + rule.marker + inner.length;
      // Markers inside code stay as typed.
      if (literal.some((e) => open < e.offset + e.length && close + rule.marker > e.offset)) {
        rule.re.lastIndex = open + 1;
        continue;
      }
      cut(f, close, rule.marker);
      cut(f, open, rule.marker);
      const entity: TextEntity = { type: rule.type, offset: open, length: inner.length };
      f.entities.push(entity);
      if (rule.type === 'pre' || rule.type === 'code') literal.push(entity);
      rule.re.lastIndex = close - rule.marker;
    }
  }
  f.entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return f;
}

/** The part `[start, end)` of a formatted text, its entities cut to it. */
export function sliceFormatted(f: FormattedText, start: number, end: number): FormattedText {
  const entities: TextEntity[] = [];
  for (const e of f.entities) {
    const from = Math.max(e.offset, start);
    const to = Math.min(e.offset + e.length, end);
    if (to > from) entities.push({ type: e.type, offset: from - start, length: to - from });
  }
  return { text: f.text.slice(start, end), entities };
}

/** Telegram's extra fields for a formatted text: `entities` only when there are some. */
export const entitiesOf = (f: FormattedText, field: 'entities' | 'caption_entities' = 'entities') => (f.entities.length ? { [field]: f.entities } : {});

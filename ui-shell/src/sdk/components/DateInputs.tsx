import { ActionIcon, Loader, Popover, TextInput, type TextInputProps } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { datePattern } from '../format.ts';

const CalendarPicker = lazy(() => import('./CalendarPicker.tsx'));

const pad = (n: number) => String(n).padStart(2, '0');

/** Inserts separators while the user types digits (`01011990` → `01/01/1990`). */
function mask(raw: string, withTime: boolean): string {
  const d = raw.replace(/\D/g, '').slice(0, withTime ? 12 : 8);
  let out = d.slice(0, 2);
  if (d.length > 2) out += `/${d.slice(2, 4)}`;
  if (d.length > 4) out += `/${d.slice(4, 8)}`;
  if (withTime && d.length > 8) out += ` ${d.slice(8, 10)}`;
  if (withTime && d.length > 10) out += `:${d.slice(10, 12)}`;
  return out;
}

interface Parts { y: number; m: number; d: number; hh: number; mm: number }

function parse(text: string, monthFirst: boolean, withTime: boolean): Parts | null {
  const re = withTime ? /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/ : /^(\d{2})\/(\d{2})\/(\d{4})$/;
  const m = re.exec(text);
  if (!m) return null;
  const [a, b, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [month, day] = monthFirst ? [a, b] : [b, a];
  const hh = withTime ? Number(m[4]) : 0;
  const mm = withTime ? Number(m[5]) : 0;
  const date = new Date(y, month - 1, day, hh, mm);
  const ok = y >= 1900 && y <= 2200 && date.getFullYear() === y && date.getMonth() === month - 1 && date.getDate() === day && hh < 24 && mm < 60;
  return ok ? { y, m: month, d: day, hh, mm } : null;
}

function toIso(p: Parts, withTime: boolean): string {
  const date = `${p.y}-${pad(p.m)}-${pad(p.d)}`;
  return withTime ? `${date}T${pad(p.hh)}:${pad(p.mm)}` : date;
}

function fromIso(iso: string | null, monthFirst: boolean, withTime: boolean): string {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(iso) : null;
  if (!m) return '';
  const date = monthFirst ? `${m[2]}/${m[3]}/${m[1]}` : `${m[3]}/${m[2]}/${m[1]}`;
  return withTime ? `${date} ${m[4] ?? '00'}:${m[5] ?? '00'}` : date;
}

export interface DateInputBRProps extends Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> {
  /** `YYYY-MM-DD` (date) or `YYYY-MM-DDTHH:mm` (date-time, local time), or null when empty. */
  value: string | null;
  onChange: (value: string | null) => void;
}

function useMaskedDate({ value, onChange, withTime }: { value: string | null; onChange: (v: string | null) => void; withTime: boolean }) {
  const { t, i18n } = useTranslation();
  // Date-time is always day first (24 h); plain dates follow the language (core.md §5).
  const monthFirst = !withTime && datePattern(i18n.language) === 'MM/DD/YYYY';
  const [text, setText] = useState(() => fromIso(value, monthFirst, withTime));
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    // Follow outside changes (form reset, calendar pick) without fighting the user's typing.
    const parsed = parse(text, monthFirst, withTime);
    const current = parsed ? toIso(parsed, withTime) : null;
    if (current !== value && !(value === null && text !== '' && !parsed)) {
      setText(fromIso(value, monthFirst, withTime));
      setInvalid(false);
    }
  }, [value, monthFirst]);

  const full = withTime ? 16 : 10;
  const change = (raw: string) => {
    const next = mask(raw, withTime);
    setText(next);
    if (next === '') {
      setInvalid(false);
      onChange(null);
      return;
    }
    if (next.length === full) {
      const p = parse(next, monthFirst, withTime);
      setInvalid(!p);
      onChange(p ? toIso(p, withTime) : null);
    } else {
      setInvalid(false);
    }
  };
  const blur = () => setInvalid(text !== '' && !parse(text, monthFirst, withTime));
  const placeholder = withTime ? t('dates.dateTimePlaceholder') : monthFirst ? t('dates.datePlaceholderEn') : t('dates.datePlaceholder');
  return { text, change, blur, invalid, placeholder, language: i18n.language, invalidText: t('validation.invalidDate') };
}

function DateField({ value, onChange, withTime, error, ...rest }: DateInputBRProps & { withTime: boolean }) {
  const s = useMaskedDate({ value, onChange, withTime });
  const [open, setOpen] = useState(false);
  const datePart = value ? value.slice(0, 10) : null;
  const pick = (isoDate: string) => {
    setOpen(false);
    onChange(withTime ? `${isoDate}T${value && value.length >= 16 ? value.slice(11, 16) : '00:00'}` : isoDate);
  };
  return (
    <TextInput
      {...rest}
      inputMode="numeric"
      autoComplete="off"
      value={s.text}
      placeholder={rest.placeholder ?? s.placeholder}
      onChange={(e) => s.change(e.currentTarget.value)}
      onBlur={(e) => {
        s.blur();
        rest.onBlur?.(e);
      }}
      error={error ?? (s.invalid ? s.invalidText : undefined)}
      rightSection={
        <Popover opened={open} onChange={setOpen} position="bottom-end" shadow="md" withinPortal>
          <Popover.Target>
            <ActionIcon variant="subtle" color="gray" onClick={() => setOpen((o) => !o)} aria-label={s.placeholder} disabled={rest.disabled}>
              <IconCalendar size={16} stroke={1.6} />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown>
            <Suspense fallback={<Loader size="sm" m="md" />}>
              {open && <CalendarPicker language={s.language} value={datePart} onPick={pick} />}
            </Suspense>
          </Popover.Dropdown>
        </Popover>
      }
    />
  );
}

/** Date input typed as dd/MM/yyyy (MM/dd/yyyy when the language is English), with a calendar. */
export function DateInputBR(props: DateInputBRProps) {
  return <DateField {...props} withTime={false} />;
}

/** Date-time input typed as dd/MM/yyyy HH:mm (24 h), with a calendar for the day. */
export function DateTimeInputBR(props: DateInputBRProps) {
  return <DateField {...props} withTime />;
}

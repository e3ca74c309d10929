/**
 * The calendar behind the date inputs, loaded on first open: @mantine/dates
 * and dayjs locales are not needed to render a screen, only to pick a day.
 */
import '@mantine/dates/styles.css';
import { DatePicker, DatesProvider } from '@mantine/dates';
import 'dayjs/locale/de';
import 'dayjs/locale/en-gb';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/it';
import 'dayjs/locale/pl';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/ru';

function dayjsLocale(language: string): string {
  const l = language.toLowerCase();
  if (l.startsWith('pt')) return 'pt-br';
  if (l === 'en-gb') return 'en-gb';
  if (l.startsWith('en')) return 'en';
  return l.split('-')[0] ?? 'en';
}

export interface CalendarPickerProps {
  language: string;
  /** `YYYY-MM-DD` or null. */
  value: string | null;
  onPick: (isoDate: string) => void;
}

export default function CalendarPicker({ language, value, onPick }: CalendarPickerProps) {
  const locale = dayjsLocale(language);
  return (
    <DatesProvider settings={{ locale, firstDayOfWeek: locale === 'en' ? 0 : 1 }}>
      <DatePicker value={value} defaultDate={value ?? undefined} onChange={(v) => v && onPick(v)} />
    </DatesProvider>
  );
}

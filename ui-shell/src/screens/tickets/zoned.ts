/**
 * Wall-clock times in the tenant's time zone, not the browser's (issue U2 #9): a message scheduled
 * from the conversation for 14:00 goes out at 14:00 where the company is, as /agendamentos shows it.
 * The same arithmetic as the schedules remote's (ui-plugins/schedules/src/zoned.ts), which the
 * shell cannot import.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '@atende/ui-shell/sdk';

const pad = (n: number) => String(n).padStart(2, '0');

function partsIn(instant: Date, timeZone: string) {
  const p = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).formatToParts(instant);
  const get = (t: string) => Number(p.find((x) => x.type === t)?.value ?? 0);
  return { y: get('year'), m: get('month'), d: get('day'), hh: get('hour') % 24, mm: get('minute'), ss: get('second') };
}

/** `YYYY-MM-DDTHH:mm` as the wall clock of `timeZone` shows `instant`. */
export function toZonedWall(instant: Date | string, timeZone: string): string {
  const p = partsIn(new Date(instant), timeZone);
  return `${p.y}-${pad(p.m)}-${pad(p.d)}T${pad(p.hh)}:${pad(p.mm)}`;
}

/** The instant at which the wall clock of `timeZone` reads `wall` (`YYYY-MM-DDTHH:mm`). */
export function fromZonedWall(wall: string, timeZone: string): Date {
  const [date = '', time = '00:00'] = wall.split('T');
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  const [hh = 0, mm = 0] = time.split(':').map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hh, mm);
  let guess = asUtc;
  // The zone's offset at that moment, found by reading the guess back (twice, for DST edges).
  for (let i = 0; i < 2; i++) {
    const p = partsIn(new Date(guess), timeZone);
    guess = asUtc - (Date.UTC(p.y, p.m - 1, p.d, p.hh, p.mm, p.ss) - guess);
  }
  return new Date(guess);
}

/** In 30 minutes, tomorrow or next week at 09:00 of the tenant's day. */
export function zonedPreset(kind: '30m' | 'tomorrow' | 'week', timeZone: string, now = new Date()): string {
  if (kind === '30m') return toZonedWall(new Date(now.getTime() + 30 * 60_000), timeZone);
  const [y = 0, m = 1, d = 1] = toZonedWall(now, timeZone).slice(0, 10).split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1, d + (kind === 'tomorrow' ? 1 : 7)));
  return `${target.getUTCFullYear()}-${pad(target.getUTCMonth() + 1)}-${pad(target.getUTCDate())}T09:00`;
}

/** The tenant's time zone (readable with the tickets menu). */
export function useTenantTimeZone(enabled = true): string {
  const q = useQuery({
    queryKey: ['tickets', 'tenant-tz'],
    queryFn: async () => (await api.get<{ timezone: string }>('/tenants/business-hours', { silent: true, background: true })).timezone,
    staleTime: 600_000,
    retry: false,
    enabled,
  });
  return q.data ?? 'America/Sao_Paulo';
}

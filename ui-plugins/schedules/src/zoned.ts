/**
 * Wall-clock times in the tenant's time zone (not the browser's): a schedule
 * typed as 14:00 goes out at 14:00 where the company is.
 */
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
  const [date, time] = wall.split('T');
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hh, mm);
  // The zone's offset at that moment, found by reading the guess back (twice, for DST edges).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const p = partsIn(new Date(guess), timeZone);
    guess = asUtc - (Date.UTC(p.y, p.m - 1, p.d, p.hh, p.mm, p.ss) - guess);
  }
  return new Date(guess);
}

/** Quick schedule presets (core.md §9): in 30 minutes, tomorrow and next week (at 09:00 of the tenant's day). */
export function preset(kind: 'in30' | 'tomorrow' | 'nextWeek', timeZone: string, now = new Date()): string {
  if (kind === 'in30') return toZonedWall(new Date(now.getTime() + 30 * 60_000), timeZone);
  const today = toZonedWall(now, timeZone).slice(0, 10);
  const [y, m, d] = today.split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1, d + (kind === 'tomorrow' ? 1 : 7)));
  return `${target.getUTCFullYear()}-${pad(target.getUTCMonth() + 1)}-${pad(target.getUTCDate())}T09:00`;
}

/** `dd/MM/yyyy HH:mm` (or MM/dd/yyyy in English) of an instant on the tenant's clock. */
export function formatZoned(instant: string, timeZone: string, monthFirst: boolean): string {
  const w = toZonedWall(instant, timeZone);
  const [date, time] = w.split('T');
  const [y, m, d] = date.split('-');
  return `${monthFirst ? `${m}/${d}` : `${d}/${m}`}/${y} ${time}`;
}

/** What the schedules plugin's server part and its screen share: its events (the schedule is the kernel's `ScheduledMessage`). */
import { defineContract, z, type EventsOf } from '@atende/core/contract';
import type { ScheduledMessage } from '@atende/core/sdk';

/** The kernel's scheduled message as the routes answer it. */
const scheduled = z.custom<ScheduledMessage>((v) => typeof v === 'object' && v !== null && 'id' in v);

export const contract = defineContract({
  id: 'schedules',
  events: {
    'schedule.created': scheduled,
    'schedule.updated': scheduled,
    'schedule.deleted': z.object({ id: z.string(), ticketId: z.number().int().nullable().optional() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
}

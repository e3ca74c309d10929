/** What the birthdays plugin's server part and its screen share: its events. */
import { defineContract, z, type EventsOf } from '@atende/core/contract';

export const sendOutcome = z.object({
  contactId: z.number().int(),
  name: z.string(),
  status: z.enum(['sent', 'already_sent', 'no_message', 'failed']),
  error: z.string().optional(),
});

export const contract = defineContract({
  id: 'birthdays',
  events: {
    /** A run (hourly or the manual action) sent birthday messages: the screen refreshes its "sent" marks. */
    'birthday.sent': z.object({ results: z.array(sendOutcome) }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
}

import { z } from 'zod';
import { isoDate } from '../../sdk/contract.ts';

/** A queue as `queueOut` (queues-tags.ts) writes it. */
export const queueAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string().nullable(),
  // The queue's SLA targets (minutes): without them here the answer would drop them and the queue form would lose them.
  slaFirstResponseMinutes: z.number().int().nullable(),
  slaResolutionMinutes: z.number().int().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

/** A tag as `tagOut` (queues-tags.ts) writes it. */
export const tagAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  active: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

/** A quick message as `quickMessageOut` (quick-messages.ts) writes it. */
export const quickMessageAnswer = z.object({
  id: z.number().int(),
  key: z.string(),
  message: z.string(),
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaType: z.string().nullable(),
  asAudio: z.boolean(),
  active: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

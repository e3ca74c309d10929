/**
 * What the ratings plugin's server part and its screens share: the list's
 * filters and answer, and the rating request's configuration (still served by
 * the kernel at `GET|PUT /tenants/rating`, with the same rules).
 */
import { defineContract, isoDate, pageQuery, positiveId, queryDate, z } from '@atende/core/contract';

/** Labels of the scale, index = score (core.md §9). */
export const RATING_LABELS = ['Ruim', 'Regular', 'Bom', 'Muito bom', 'Excelente', 'Incrível'] as const;

/** `GET /ratings`: the period, agent, queue, score and text (contact name or protocol), paged. */
export const ratingsQuery = z
  .object({
    from: queryDate,
    to: queryDate,
    userId: positiveId.optional(),
    queueId: positiveId.optional(),
    score: z.coerce.number().int().min(0, 'nota de 0 a 5').max(5, 'nota de 0 a 5').optional(),
    search: z.string().trim().max(200).optional(),
  })
  .extend(pageQuery.shape)
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'a data inicial deve ser anterior à final', path: ['from'] });
export type RatingsQuery = z.input<typeof ratingsQuery>;

/** One customer's answer on a resolved ticket. */
export const rating = z.object({
  ticketId: z.number().int(),
  protocol: z.string().nullable(),
  value: z.number().int(),
  attempts: z.number().int(),
  ratedAt: isoDate,
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  queueId: z.number().int().nullable(),
  queueName: z.string().nullable(),
  contactId: z.number().int(),
  contactName: z.string(),
});
export type Rating = z.output<typeof rating>;

/** A page of answers with the averages over every answer the filters match. */
export const ratingsAnswer = z.object({
  rows: z.array(rating),
  count: z.number().int(),
  hasMore: z.boolean(),
  average: z.number().nullable(),
  /** Count per score 0..5. */
  distribution: z.array(z.number().int()),
  byUser: z.array(z.object({ userId: z.number().int().nullable(), userName: z.string().nullable(), count: z.number().int(), average: z.number() })),
  /** The scale's labels, index = score. */
  labels: z.array(z.string()),
});
export type RatingsAnswer = z.output<typeof ratingsAnswer>;

/** The rating request: whether it is offered, how many times it is asked, and its text (null = the default with the scale). */
export const ratingConfig = z.object({ enabled: z.boolean(), maxAttempts: z.number().int(), message: z.string().nullable() });
export type RatingConfig = z.output<typeof ratingConfig>;

/** A change of the rating request; a blank message goes back to the default. */
export const ratingConfigInput = z
  .object({
    message: z.string().trim().max(1024, 'No máximo 1024 caracteres').nullable().optional().transform((v) => (v === '' ? null : v)),
    maxAttempts: z.number().int().min(1, 'de 1 a 10').max(10, 'de 1 a 10').optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type RatingConfigInput = z.input<typeof ratingConfigInput>;

export const contract = defineContract({ id: 'ratings' });

/** What the farewells plugin's server part and its screen share: a farewell message, its input and its events. */
import { defineContract, isoDate, z, type EventsOf } from '@atende/core/contract';

export const farewell = z.object({
  id: z.number().int(),
  message: z.string(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Farewell = z.output<typeof farewell>;

/** The text of a farewell message (unique per tenant, case-insensitive: the server refuses a repeat). */
export const farewellInput = z.object({ message: z.string().trim().min(1, 'A mensagem é obrigatória').max(4096, 'A mensagem deve ter no máximo 4096 caracteres') }).strict();
export type FarewellInput = z.input<typeof farewellInput>;

export const contract = defineContract({
  id: 'farewells',
  events: {
    'farewell.created': farewell,
    'farewell.updated': farewell,
    'farewell.deleted': z.object({ id: z.number().int() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
}

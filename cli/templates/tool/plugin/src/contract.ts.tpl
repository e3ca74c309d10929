/**
 * What __LABEL__'s server part and its side panel share (docs/plugin-authoring.md):
 * the schemas of an item noted on a contact and the plugin's event. The
 * remote imports this file as `@atende/plugin-__ID__/contract`.
 */
import { defineContract, isoDate, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

/** What an agent types: one short line. */
export const itemInput = z.object({ text: z.string().trim().min(1, 'O campo texto é obrigatório').max(2000, 'No máximo 2000 caracteres') }).strict();
export type ItemInput = z.input<typeof itemInput>;

export const item = z.object({
  id: z.number().int(),
  contactId: z.number().int(),
  userId: z.number().int().nullable(),
  text: z.string(),
  createdAt: isoDate,
});
export type Item = z.output<typeof item>;

export const contract = defineContract({
  id: '__ID__',
  events: {
    '__EVENT__.item_created': item,
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}

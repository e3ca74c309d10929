/**
 * What __LABEL__'s server part and its screen share (docs/plugin-authoring.md):
 * the schemas of an item, of the list query and of the tenant's settings, the
 * plugin's error and its events. The remote imports this file as
 * `@atende/plugin-__ID__/contract`, so it imports only the kernel's
 * browser-safe contract module and zod.
 */
import { defineContract, isoDate, pageOf, pageQuery, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

/** What a user types for a new item. The server parses the body with it; the screen validates its form with it. */
export const itemInput = z
  .object({
    title: z.string().trim().min(1, 'O campo título é obrigatório').max(120, 'No máximo 120 caracteres'),
    note: z.string().trim().max(500, 'No máximo 500 caracteres').default(''),
  })
  .strict();
export type ItemInput = z.input<typeof itemInput>;

/** The tenant's settings (`GET|PUT /api/plugins/__ID__/settings`); defaults fill what an admin never saved. */
export const settingsSchema = z.object({
  /** Every item must carry a note. */
  requireNote: z.boolean().default(false),
});
export type Settings = z.output<typeof settingsSchema>;

/** The input rules under a tenant's settings: one function, so the server and the form agree. */
export function itemInputFor(settings: Settings) {
  return settings.requireNote ? itemInput.extend({ note: z.string().trim().min(1, 'O campo observação é obrigatório').max(500, 'No máximo 500 caracteres') }) : itemInput;
}

/** An item as the API answers it; the author's name comes from the kernel's users read service. */
export const item = z.object({
  id: z.number().int(),
  title: z.string(),
  note: z.string(),
  authorId: z.number().int().nullable(),
  authorName: z.string().nullable(),
  createdAt: isoDate,
});
export type Item = z.output<typeof item>;

/** `GET /api/plugins/__ID__/items`: a page of the newest items, optionally matching a text. */
export const itemsQuery = pageQuery.extend({ search: z.string().trim().max(100).optional() });
/** The query as the server reads it (the screen sends every field). */
export type ItemsQuery = z.output<typeof itemsQuery>;
export const itemsPage = pageOf(item);
export type ItemsPage = z.output<typeof itemsPage>;

export const contract = defineContract({
  id: '__ID__',
  errors: {
    ERR___CODE___ITEM_EXISTS: {
      status: 409,
      text: {
        pt: 'Já existe um item com este título',
        en: 'An item with this title already exists',
        es: 'Ya existe un elemento con este título',
        de: 'Es gibt bereits einen Eintrag mit diesem Titel',
        fr: 'Un élément portant ce titre existe déjà',
        it: 'Esiste già un elemento con questo titolo',
        pl: 'Element o tym tytule już istnieje',
        ru: 'Элемент с таким названием уже существует',
      },
    },
  },
  events: {
    '__EVENT__.item_created': item,
    '__EVENT__.item_deleted': z.object({ id: z.number().int() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}

/**
 * What the kanban plugin's server part and its screens share: lanes (name,
 * position), the board's cards and columns, the moves, the plugin's error and
 * its events.
 */
import { defineContract, isoDate, positiveId, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

const INT = 2_147_483_647;
/** An id inside a JSON body (no string coercion there). */
const bodyId = z.number().int().positive().max(INT);

/** Lane: name, position (core.md §3; administration.md §3 "Lanes (name, position) … are configured here"). */
export const laneName = z.string().trim().min(1, 'O campo nome é obrigatório').max(80, 'No máximo 80 caracteres');
const position = z.number().int().min(0).max(10_000);

export const laneCreateBody = z.object({ name: laneName, position: position.optional() }).strict();
export type LaneCreateInput = z.input<typeof laneCreateBody>;
export const laneUpdateBody = z.object({ name: laneName.optional(), position: position.optional() }).strict();
export const laneOrderBody = z.object({ ids: z.array(bodyId).min(1).max(500) }).strict();
/** The lane forms (add, rename): a name. */
export const laneForm = z.object({ name: laneName });
export type LaneFormValues = z.input<typeof laneForm>;

export const lane = z.object({ id: z.number().int(), name: z.string(), position: z.number().int(), createdAt: isoDate, updatedAt: isoDate });
export type Lane = z.output<typeof lane>;

export const views = ['lanes', 'tags'] as const;
export type View = (typeof views)[number];

/** The contact's most recent open or pending ticket (status and agent only: its messages stay behind ticket visibility). */
export const cardTicket = z.object({
  id: z.number().int(),
  status: z.enum(['open', 'pending']),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  unreadMessages: z.number().int(),
  lastMessageAt: isoDate,
});
export type CardTicket = z.output<typeof cardTicket>;

/** A contact on the board. */
export const card = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string().nullable(),
  profilePicUrl: z.string().nullable(),
  /** The contact's lane when it names one of the tenant's lanes; otherwise null ("Sem lane"). */
  laneId: z.number().int().nullable(),
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string() })),
  /** The contact's wallet owners. */
  owners: z.array(z.object({ id: z.number().int(), name: z.string() })),
  ticket: cardTicket.nullable(),
});
export type Card = z.output<typeof card>;

/** One page of a column: keyset on (lower(name), id); `nextCursor` asks for the next. */
export const cardPage = z.object({ cards: z.array(card), nextCursor: z.string().nullable() });

export const column = z.object({
  key: z.string(),
  /** Lane or tag id; 0 is the column of cards without a lane (or without a tag). */
  id: z.number().int(),
  name: z.string(),
  color: z.string().nullable(),
  count: z.number().int(),
  cards: z.array(card),
  nextCursor: z.string().nullable(),
});
export type Column = z.output<typeof column>;

export const board = z.object({ view: z.enum(views), columns: z.array(column) });
export type Board = z.output<typeof board>;

export const PAGE_SIZE = 30;
const search = z.string().max(120).optional();
const limit = z.coerce.number().int().min(1).max(100).default(PAGE_SIZE);
export const boardQuery = z.object({ view: z.enum(views).default('lanes'), search, limit });
export const columnQuery = z.object({ cursor: z.string().max(600).optional(), search, limit });
/** A column id: a lane or tag id, or 0 for the cards without one. */
export const columnParam = z.object({ id: z.coerce.number().int().min(0).max(INT) });
export const contactParam = z.object({ contactId: positiveId });

/** Moving a card sets the contact's lane; null takes it out of every lane. */
export const moveBody = z.object({ laneId: bodyId.nullable() }).strict();
/** In the tags view a drag swaps one tag for another (from: the column it left, to: the column it entered). */
export const tagMoveBody = z.object({ from: bodyId.nullable(), to: bodyId.nullable() }).strict();
/** The contact's owner (wallet); null leaves it without one. */
export const ownerBody = z.object({ userId: bodyId.nullable() }).strict();

export const owner = z.object({ id: z.number().int(), name: z.string(), profile: z.string() });

/** What every board of the tenant needs to move one card without reloading: the card now and the columns it left. */
export const cardEvent = z.object({ card, before: z.object({ laneId: z.number().int().nullable(), tagIds: z.array(z.number().int()) }) });
export type CardEvent = z.output<typeof cardEvent>;

export const contract = defineContract({
  id: 'kanban',
  errors: {
    ERR_LANE_EXISTS: {
      status: 409,
      text: {
        pt: 'Já existe uma lane com este nome',
        en: 'A lane with this name already exists',
        es: 'Ya existe una columna con este nombre',
        de: 'Es gibt bereits eine Spalte mit diesem Namen',
        fr: 'Une colonne porte déjà ce nom',
        it: 'Esiste già una colonna con questo nome',
        pl: 'Kolumna o tej nazwie już istnieje',
        ru: 'Колонка с таким названием уже существует',
      },
    },
    ERR_LANE_GROUP: {
      status: 400,
      text: {
        pt: 'Grupos não entram no kanban: só contatos têm lane',
        en: 'Groups are not on the kanban: only contacts have a lane',
        es: 'Los grupos no entran en el kanban: solo los contactos tienen columna',
        de: 'Gruppen stehen nicht im Kanban: nur Kontakte haben eine Spalte',
        fr: 'Les groupes ne sont pas dans le kanban : seuls les contacts ont une colonne',
        it: 'I gruppi non sono nel kanban: solo i contatti hanno una colonna',
        pl: 'Grupy nie trafiają na kanban: kolumnę mają tylko kontakty',
        ru: 'Группы не попадают в канбан: колонка есть только у контактов',
      },
    },
  },
  events: {
    'kanban.lanes_changed': z.object({ lanes: z.array(lane) }),
    'kanban.card_moved': cardEvent,
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}

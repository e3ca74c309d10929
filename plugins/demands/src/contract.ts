/**
 * What the demands plugin's server part and its screen share: the schemas of
 * a demand reason (motivo), the plugin's error and its events.
 */
import { defineContract, isoDate, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

/** The name of a demand reason (core.md §3 "Demand (motivo): name"). */
export const demandInput = z.object({ name: z.string().trim().min(1, 'O campo nome é obrigatório').max(120, 'No máximo 120 caracteres') }).strict();
export type DemandInput = z.input<typeof demandInput>;

export const demand = z.object({ id: z.number().int(), name: z.string(), createdAt: isoDate });
export type Demand = z.output<typeof demand>;

export const contract = defineContract({
  id: 'demands',
  errors: {
    ERR_DEMAND_EXISTS: {
      status: 409,
      text: {
        pt: 'Já existe um motivo com este nome',
        en: 'A reason with this name already exists',
        es: 'Ya existe un motivo con este nombre',
        de: 'Es gibt bereits einen Grund mit diesem Namen',
        fr: 'Un motif portant ce nom existe déjà',
        it: 'Esiste già un motivo con questo nome',
        pl: 'Powód o tej nazwie już istnieje',
        ru: 'Причина с таким названием уже существует',
      },
    },
  },
  events: {
    'demand.created': demand,
    'demand.updated': demand,
    'demand.deleted': z.object({ id: z.number().int() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}

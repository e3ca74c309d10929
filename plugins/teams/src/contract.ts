/**
 * What the teams plugin's server part and its screen share: a team (core.md
 * §3 "Team: name, active, users"), the form's rules, the plugin's error and its
 * events.
 */
import { defineContract, isoDate, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

export const MAX_MEMBERS = 500;

/** A team as clients send it; a missing name answers the spec's own message (`ERR_REQUIRED_FIELD`, core.md §5). */
export const teamBody = z
  .object({
    name: z.string().trim().max(120).optional(),
    active: z.boolean().optional(),
    userIds: z.array(z.number().int().positive().max(2_147_483_647)).max(MAX_MEMBERS).optional(),
  })
  .strict();
export type TeamInput = z.input<typeof teamBody>;

/** The team drawer's form: the same rules, with the name required. */
export const teamForm = z.object({
  name: z.string().trim().min(1, 'O campo nome é obrigatório').max(120),
  active: z.boolean(),
  /** Member ids as the picker holds them. */
  userIds: z.array(z.string().regex(/^\d+$/)).max(MAX_MEMBERS),
});
export type TeamFormValues = z.input<typeof teamForm>;

export const member = z.object({ id: z.number().int(), name: z.string() });

export const team = z.object({ id: z.number().int(), name: z.string(), active: z.boolean(), users: z.array(member), createdAt: isoDate, updatedAt: isoDate });
export type Team = z.output<typeof team>;

/** A user the member picker offers (names only: a supervisor picks by name). */
export const teamUser = z.object({ id: z.number().int(), name: z.string(), active: z.boolean() });

export const contract = defineContract({
  id: 'teams',
  errors: {
    ERR_TEAM_EXISTS: {
      status: 409,
      text: {
        pt: 'Já existe uma equipe com este nome',
        en: 'A team with this name already exists',
        es: 'Ya existe un equipo con este nombre',
        de: 'Es gibt bereits ein Team mit diesem Namen',
        fr: 'Une équipe porte déjà ce nom',
        it: 'Esiste già un team con questo nome',
        pl: 'Zespół o tej nazwie już istnieje',
        ru: 'Команда с таким названием уже существует',
      },
    },
  },
  events: {
    'team.created': team,
    'team.updated': team,
    'team.deleted': z.object({ id: z.number().int() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}

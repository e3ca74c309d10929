/**
 * What the reports plugin's server part and its screen share: the filters and
 * rows of each report (administration.md §3 "Report columns"), its errors
 * (§5 "Reports", §8 "Report needs dates, queues, wallet, state, tag or kanban
 * selected") and its events.
 */
import { defineContract, isoDate, pageOf, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

/** The seven reports, by the path of their screen under `/relatorios`. */
export const REPORTS = [
  'atendimentos-por-parametros',
  'estatisticas-atendimentos-usuarios',
  'lista-contatos',
  'contatos-por-etiquetas',
  'contatos-por-estado',
  'contatos-por-carteira',
] as const;
export type ReportKey = (typeof REPORTS)[number];

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;

/** A calendar day in the tenant's time zone (`2026-11-26`); both ends of a range are included. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data inválida').optional();
/** A list of ids in a query string (`1,2,3`). */
const idList = z.string().max(2000).regex(/^\d{1,10}(,\d{1,10})*$/, 'Lista inválida').optional();
const page = {
  pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
};

/** Tickets by parameters: dates and queues required (checked by the route with the spec's message); the rest optional. */
export const ticketReportQuery = z.object({
  from: day,
  to: day,
  queueIds: idList,
  status: z.enum(TICKET_STATUSES).optional(),
  userId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  channelId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  tagId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  demand: z.string().trim().max(200).optional(),
  ...page,
});
export type TicketReportQuery = z.input<typeof ticketReportQuery>;

export const ticketRow = z.object({
  notes: z.string().nullable(),
  id: z.number().int(),
  status: z.string(),
  name: z.string(),
  number: z.string().nullable(),
  connection: z.string().nullable(),
  lastMessage: z.string().nullable(),
  unreadMessages: z.number().int(),
  demand: z.string().nullable(),
  queue: z.string().nullable(),
  channel: z.string().nullable(),
  value: z.number().nullable(),
  createdAt: isoDate,
});
export type TicketRow = z.output<typeof ticketRow>;
export const ticketPage = pageOf(ticketRow);

/** Per-user summary; the dates are optional (all time without them), queues narrow it. */
export const userStatsQuery = z.object({ from: day, to: day, queueIds: idList });
export type UserStatsQuery = z.input<typeof userStatsQuery>;
export const userStatsRow = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string(),
  pending: z.number().int(),
  open: z.number().int(),
  closed: z.number().int(),
  total: z.number().int(),
});
export type UserStatsRow = z.output<typeof userStatsRow>;
export const userStats = z.object({ rows: z.array(userStatsRow), totals: userStatsRow.omit({ userId: true, name: true, email: true }) });

/** The contact reports: the general list (optional search) and those that need at least one selected item. */
export const contactReportQuery = z.object({
  search: z.string().trim().max(120).optional(),
  tagIds: idList,
  walletIds: idList,
  states: z.string().max(2000).optional(),
  ...page,
});
export type ContactReportQuery = z.input<typeof contactReportQuery>;
export const contactRow = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string().nullable(),
  email: z.string().nullable(),
  state: z.string().nullable(),
  tags: z.array(z.string()),
  wallets: z.array(z.string()),
  extraInfo: z.string().nullable(),
});
export type ContactRow = z.output<typeof contactRow>;
export const contactPage = pageOf(contactRow);

/** What the filters offer: the tenant's queues, users, connections, tags, contact states and demands. */
const named = z.object({ id: z.number().int(), name: z.string() });
export const reportOptions = z.object({
  tenantName: z.string(),
  queues: z.array(named),
  users: z.array(named),
  channels: z.array(named),
  tags: z.array(named),
  states: z.array(z.string()),
  demands: z.array(z.string()),
});
export type ReportOptions = z.output<typeof reportOptions>;

export const contract = defineContract({
  id: 'reports',
  errors: {
    ERR_REPORT_DATES_QUEUES: {
      status: 400,
      text: {
        pt: 'Informe as datas e as filas do relatório',
        en: 'Choose the report’s dates and queues',
        es: 'Indique las fechas y las colas del informe',
        de: 'Wählen Sie Zeitraum und Warteschlangen des Berichts',
        fr: 'Indiquez les dates et les files du rapport',
        it: 'Indica le date e le code del report',
        pl: 'Wybierz daty i kolejki raportu',
        ru: 'Укажите даты и очереди отчёта',
      },
    },
    ERR_REPORT_SELECTION: {
      status: 400,
      text: {
        pt: 'Selecione ao menos uma carteira, estado, etiqueta ou kanban',
        en: 'Select at least one wallet, state, tag or kanban',
        es: 'Seleccione al menos una cartera, estado, etiqueta o kanban',
        de: 'Wählen Sie mindestens ein Portfolio, einen Status, ein Etikett oder ein Kanban',
        fr: 'Sélectionnez au moins un portefeuille, un état, une étiquette ou un kanban',
        it: 'Seleziona almeno un portafoglio, uno stato, un’etichetta o un kanban',
        pl: 'Wybierz co najmniej jeden portfel, stan, etykietę lub kanban',
        ru: 'Выберите хотя бы один портфель, состояние, метку или канбан',
      },
    },
  },
  events: {},
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}

/** The reports an Excel export can run (every on-screen report). */
export const EXPORTABLE = ['atendimentos-por-parametros', 'estatisticas-atendimentos-usuarios', 'lista-contatos', 'contatos-por-etiquetas', 'contatos-por-estado', 'contatos-por-carteira'] as const;

/** Asks for a report's Excel file with the filters of the screen (the same query parameters). */
export const exportInput = z
  .object({ report: z.enum(EXPORTABLE), query: z.record(z.string(), z.union([z.string().max(2000), z.number()])).default({}) })
  .strict();
export type ExportInput = z.input<typeof exportInput>;

/** An export's state: queued, running (progress 0–100), done (file ready, kept a day) or failed. */
export const exportState = z.object({
  id: z.number().int(),
  report: z.enum(EXPORTABLE),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  progress: z.number().int(),
  rows: z.number().int().nullable(),
  createdAt: isoDate,
  expiresAt: isoDate,
});
export type ExportState = z.output<typeof exportState>;

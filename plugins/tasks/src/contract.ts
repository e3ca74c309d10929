/**
 * What the tasks plugin's server part and its screen share: the task and its
 * comments, the form's rules and the plugin's events (core.md §3 "Task: id,
 * name, description, limit date, owner, priority, comments, status,
 * recurrence, repetition count"; §4 statuses and priorities; §9 recurrence).
 */
import { defineContract, isoDate, positiveId, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

const INT = 2_147_483_647;

export const PRIORITIES = ['high', 'medium', 'low', 'none'] as const;
export type Priority = (typeof PRIORITIES)[number];
/** Recurrence in days (core.md §9); 0 = none. */
export const RECURRENCE_DAYS = [0, 7, 30, 45, 60, 75, 90] as const;
/** `delayed` is never stored: a pending task whose limit date has passed. */
export const STATUSES = ['delayed', 'pending', 'finished'] as const;
export type TaskStatus = (typeof STATUSES)[number];

const recurrence = z.literal(RECURRENCE_DAYS);

/**
 * A task as clients send it. Required fields are optional here so a missing one
 * answers the spec's own message (`ERR_REQUIRED_FIELD`, core.md §5), not a schema dump.
 */
export const taskBody = z
  .object({
    name: z.string().trim().max(200).optional(),
    description: z.string().max(5000).optional().nullable(),
    /** An instant the server reads with `Date` (ISO 8601). */
    limitDate: z.string().max(40).optional().nullable(),
    ownerId: z.number().int().positive().max(INT).optional().nullable(),
    priority: z.enum(PRIORITIES).optional(),
    recurrence: recurrence.optional(),
    repetitions: z.number().int().min(0).max(100).optional(),
  })
  .strict();
export type TaskInput = z.input<typeof taskBody>;

/** The task form (`/tarefas`): the same rules, with the required fields required. */
export const taskForm = z.object({
  name: z.string().trim().min(1, 'O campo nome é obrigatório').max(200),
  description: z.string().max(5000),
  limitDate: z.string({ error: 'O campo data limite é obrigatório' }).min(1, 'O campo data limite é obrigatório'),
  ownerId: z.string().nullable(),
  priority: z.enum(PRIORITIES),
  /** The recurrence select's value (days as text). */
  recurrence: z.string().refine((v) => (RECURRENCE_DAYS as readonly number[]).includes(Number(v))),
  repetitions: z.number().int().min(1).max(100),
});
export type TaskFormValues = z.input<typeof taskForm>;

export const task = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  limitDate: isoDate,
  ownerId: z.number().int().nullable(),
  ownerName: z.string().nullable(),
  createdById: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  priority: z.enum(PRIORITIES),
  status: z.enum(STATUSES),
  recurrence: z.number().int(),
  repetitions: z.number().int(),
  /** The occurrence this one follows in a recurring series. */
  previousId: z.number().int().nullable(),
  finishedAt: isoDate.nullable(),
  commentCount: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Task = z.output<typeof task>;

export const listQuery = z
  .object({
    status: z.enum(STATUSES).optional(),
    ownerId: positiveId.optional(),
    priority: z.enum(PRIORITIES).optional(),
    searchParam: z.string().max(200).optional(),
  })
  .strict();

export const finishAnswer = z.object({ task, next: task.nullable() });

export const commentBody = z.object({ body: z.string().trim().max(5000).optional() }).strict();
export const comment = z.object({ id: z.number().int(), body: z.string(), userId: z.number().int().nullable(), userName: z.string().nullable(), createdAt: isoDate });
export type TaskComment = z.output<typeof comment>;
export const createdComment = comment.extend({ taskId: z.number().int() });

export const owner = z.object({ id: z.number().int(), name: z.string() });

export const contract = defineContract({
  id: 'tasks',
  events: {
    'task.created': task,
    'task.updated': task,
    'task.finished': task,
    'task.deleted': z.object({ id: z.number().int(), ownerId: z.number().int().nullable(), createdById: z.number().int().nullable() }),
    /** Sent instead of the others to a user who may no longer see the task. */
    'task.removed': z.object({ id: z.number().int() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}

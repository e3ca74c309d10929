import { z } from 'zod';

/**
 * Query values arrive as `a,b`, `["a","b"]` (the legacy screens send JSON
 * arrays) or repeated keys; all become arrays.
 */
export const listParam = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess((v) => {
    if (v === undefined || v === null || v === '') return undefined;
    if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x])).filter((x) => x !== '');
    if (typeof v === 'string') {
      const s = v.trim();
      if (s.startsWith('[')) {
        try {
          return JSON.parse(s);
        } catch {
          return [s];
        }
      }
      return s.split(',').map((x) => x.trim()).filter(Boolean);
    }
    return [v];
  }, z.array(item).max(200).optional());

export const boolParam = z.preprocess((v) => (v === 'true' || v === true || v === '1' ? true : v === 'false' || v === false || v === '0' ? false : v), z.boolean().optional());

export const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const ticketIdParam = z.object({ ticketId: z.coerce.number().int().positive().max(2_147_483_647) });

export const ticketListQuery = z.object({
  searchParam: z.string().trim().max(200).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  status: listParam(z.enum(['open', 'pending', 'closed', 'schedule'])),
  showAll: boolParam,
  count: z.string().max(20).optional(),
  queuesIds: listParam(z.coerce.number().int().positive()),
  whatsappIds: listParam(z.coerce.number().int().positive()),
  selectedUser: z.coerce.number().int().positive().optional(),
  withUnreadMessages: boolParam,
  isNotAssignedUser: boolParam,
  includeNotQueueDefined: boolParam,
});

export type TicketListQuery = z.infer<typeof ticketListQuery>;

export function encodeCursor(at: Date, id: number): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

export function decodeCursor(c: string): { at: Date; id: number } | undefined {
  const [iso, id] = Buffer.from(c, 'base64url').toString().split('|');
  const at = new Date(iso ?? '');
  const n = Number(id);
  return Number.isNaN(at.getTime()) || !Number.isSafeInteger(n) ? undefined : { at, id: n };
}

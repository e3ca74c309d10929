import { z } from 'zod';
import { isoDate } from '../../sdk/contract.ts';
import { contactPluginFields } from './service.ts';

/**
 * Answer schemas of the contact routes, following their serialisers: `contactOut`
 * (service.ts, every contact answer), the maintenance reports (maintenance.ts) and
 * the import result (import-job.ts).
 */

const int = z.number().int();

/**
 * The spec's contact fields whose values plugins keep (`kanban`, `contactPluginFields`):
 * answered as the kernel accepts them, null when no plugin fills them.
 */
const pluginFieldsOut = Object.fromEntries(Object.entries(contactPluginFields).map(([k, v]) => [k, v.unwrap()])) as {
  [K in keyof typeof contactPluginFields]: ReturnType<(typeof contactPluginFields)[K]['unwrap']>;
};

/** `contactOut` (through `contactsOut`, which adds the plugins' fields). */
export const contactSchema = z.object({
  id: int,
  name: z.string(),
  number: z.string().nullable(),
  email: z.string().nullable(),
  identity: z.string().nullable(),
  /** `YYYY-MM-DD`. */
  birthday: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  businessName: z.string().nullable(),
  messengerId: z.string().nullable(),
  instagramId: z.string().nullable(),
  hubId: z.string().nullable(),
  telegramId: z.string().nullable(),
  profilePicUrl: z.string().nullable(),
  isGroup: z.boolean(),
  state: z.string().nullable(),
  extraInfo: z.array(z.object({ name: z.string(), value: z.string() })),
  blocked: z.boolean(),
  chatbotBlocked: z.boolean(),
  tags: z.array(z.object({ id: int, name: z.string(), color: z.string() })),
  wallets: z.array(z.object({ id: int, name: z.string() })),
  createdAt: isoDate,
  updatedAt: isoDate,
  ...pluginFieldsOut,
});

/** `listContacts`. */
export const contactPage = z.object({ contacts: z.array(contactSchema), count: int, hasMore: z.boolean(), nextCursor: z.string().nullable() });

/** `findDuplicates`. */
export const duplicatesAnswer = z.object({ groups: z.array(z.object({ reason: z.enum(['number', 'email']), key: z.string(), contacts: z.array(contactSchema) })) });

/** `mergeContacts`. */
export const mergeAnswer = z.object({ contact: contactSchema, mergedIds: z.array(int), ticketsMoved: int, ticketIds: z.array(int) });

const ninthDigitCandidate = z.object({ id: int, name: z.string(), number: z.string(), fixedNumber: z.string(), conflictContactId: int.nullable() });

/** `previewNinthDigit`. */
export const ninthDigitPreview = z.object({ officialApi: z.boolean(), count: int, candidates: z.array(ninthDigitCandidate) });

/** `applyNinthDigit`. */
export const ninthDigitResult = z.object({ checked: int, fixed: int, conflicts: int, conflictList: z.array(ninthDigitCandidate), contacts: z.array(contactSchema) });

/** `validateNumbers`. */
export const validationReport = z.object({
  officialApi: z.boolean(),
  checked: int,
  valid: int,
  invalidCount: int,
  withoutNumber: int,
  invalid: z.array(
    z.object({
      id: int,
      name: z.string(),
      number: z.string(),
      problem: z.enum(['missing', 'not_a_number', 'invalid_country_code', 'too_short', 'too_long', 'invalid', 'missing_ninth_digit']),
      fixedNumber: z.string().optional(),
    }),
  ),
});

/** `importResult`. */
export const importResultSchema = z.object({
  jobId: z.string(),
  status: z.string(),
  fileName: z.string(),
  total: int,
  processed: int,
  imported: int,
  rejected: int,
  errors: z.array(z.object({ row: int, code: z.enum(['missing_name', 'missing_number', 'invalid_number', 'invalid_email', 'duplicate_in_file', 'exists']), reason: z.string() })),
  /** A file the worker refused (no Nome/Numero columns, too many rows, not a spreadsheet): the catalogue code and its text. */
  error: z.string().optional(),
  message: z.string().optional(),
  createdAt: isoDate,
  finishedAt: isoDate.nullable(),
});

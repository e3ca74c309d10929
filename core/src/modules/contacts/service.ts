import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import type { Profile } from '../../sdk/types.ts';
import { AppError } from '../../errors.ts';
import { Contact, Tag, type ExtraInfo } from '../conversations/entities.ts';
import { User } from '../identity/entities.ts';
import { escapeLike, isUniqueViolation, iso } from '../catalog/shared.ts';
import { normalizeContactNumber } from './phone.ts';
import { cpfCnpjKind } from './document.ts';
import { parseBirthday, type DateOrder } from './birthday.ts';

export type ContactRow = InferEntity<typeof Contact>;

/** Who acts, from the verified token. */
export interface Actor {
  userId: number;
  tenantId: number;
  profile: Profile;
}

/** Administrators in the sense of spec §5 ("a contact with an ongoing ticket can only be assigned by an admin"). */
export const isAdmin = (profile: Profile) => profile === 'admin' || profile === 'superadmin';

export interface ContactOut {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  identity: string | null;
  birthday: string | null;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  messengerId: string | null;
  instagramId: string | null;
  hubId: string | null;
  telegramId: string | null;
  profilePicUrl: string | null;
  isGroup: boolean;
  /** The contact's kanban lane: a field of the spec whose value a plugin keeps (`ctx.records.extend`); null without it. */
  kanban: number | null;
  state: string | null;
  extraInfo: ExtraInfo[];
  blocked: boolean;
  chatbotBlocked: boolean;
  tags: { id: number; name: string; color: string }[];
  wallets: { id: number; name: string }[];
  createdAt: string;
  updatedAt: string;
}

const isoDate = (v: unknown): string | null => {
  if (!v) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).slice(0, 10);
};

export function contactOut(c: ContactRow, tags: ContactOut['tags'] = [], wallets: ContactOut['wallets'] = []): ContactOut {
  return {
    id: c.id,
    name: c.name,
    number: c.number ?? null,
    email: c.email ?? null,
    identity: c.identity ?? null,
    birthday: isoDate(c.birthday),
    firstName: c.firstName ?? null,
    lastName: c.lastName ?? null,
    businessName: c.businessName ?? null,
    messengerId: c.messengerId ?? null,
    instagramId: c.instagramId ?? null,
    hubId: c.hubId ?? null,
    telegramId: c.telegramId ?? null,
    profilePicUrl: c.profilePicUrl ?? null,
    isGroup: c.isGroup,
    kanban: null,
    state: c.state ?? null,
    extraInfo: Array.isArray(c.extraInfo) ? c.extraInfo : [],
    blocked: c.blocked,
    chatbotBlocked: c.chatbotBlocked,
    tags,
    wallets,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

/**
 * Serialises contacts with their tags, wallets and the fields plugins keep
 * for them (`kernel.records`): the same few queries for any number of
 * contacts. Every answer and event carrying a contact comes through here.
 */
export async function contactsOut(kernel: Kernel, em: EntityManager, tenantId: number, rows: ContactRow[]): Promise<ContactOut[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [tags, wallets, extended] = await Promise.all([
    em.execute<{ contact_id: number; id: number; name: string; color: string }[]>(
      `SELECT ct.contact_id, t.id, t.name, t.color FROM contact_tags ct
         JOIN tags t ON t.id = ct.tag_id AND t.tenant_id = ct.tenant_id
        WHERE ct.tenant_id = ? AND ct.contact_id IN (?) ORDER BY lower(t.name), t.id`,
      [tenantId, ids],
    ),
    em.execute<{ contact_id: number; id: number; name: string }[]>(
      `SELECT cw.contact_id, u.id, u.name FROM contact_wallets cw
         JOIN users u ON u.id = cw.user_id AND u.tenant_id = cw.tenant_id
        WHERE cw.tenant_id = ? AND cw.contact_id IN (?) ORDER BY lower(u.name), u.id`,
      [tenantId, ids],
    ),
    kernel.records.load('contact', tenantId, ids),
  ]);
  const tagsOf = new Map<number, ContactOut['tags']>();
  for (const t of tags) (tagsOf.get(t.contact_id) ?? tagsOf.set(t.contact_id, []).get(t.contact_id)!).push({ id: t.id, name: t.name, color: t.color });
  const walletsOf = new Map<number, ContactOut['wallets']>();
  for (const w of wallets) (walletsOf.get(w.contact_id) ?? walletsOf.set(w.contact_id, []).get(w.contact_id)!).push({ id: w.id, name: w.name });
  return rows.map((r) => Object.assign(contactOut(r, tagsOf.get(r.id) ?? [], walletsOf.get(r.id) ?? []), extended.get(r.id)));
}

export async function contactOutOne(kernel: Kernel, em: EntityManager, tenantId: number, row: ContactRow): Promise<ContactOut> {
  return (await contactsOut(kernel, em, tenantId, [row]))[0];
}

// ---------------------------------------------------------------- input

/** Optional text: trimmed, and an empty field (what forms send) means "no value". */
const text = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform((v) => v.trim() || null)
    .pipe(z.string().max(max).nullable())
    .nullable()
    .optional();

const ids = (max: number) => z.array(z.number().int().positive().max(2_147_483_647)).max(max);

/**
 * Fields of the spec's contact whose values plugins keep (`ctx.records.extend('contact')`):
 * accepted here, handed to the owning plugin's `save` after the kernel stored its part,
 * ignored when no plugin (or a plugin switched off for the tenant) owns them.
 */
export const contactPluginFields = {
  kanban: z.number().int().positive().max(2_147_483_647).nullable().optional(),
};
const PLUGIN_FIELDS = Object.keys(contactPluginFields);

/**
 * The contact fields a client sends. Shapes and lengths are checked here;
 * the rules with their own catalogue message (number, e-mail, CPF/CNPJ,
 * birthday) are checked by `prepareContact`.
 */
export const contactFields = {
  name: z.string().trim().min(1, 'O campo nome é obrigatório').max(255),
  number: text(40),
  email: text(254),
  identity: text(20),
  birthday: text(10),
  firstName: text(120),
  lastName: text(120),
  businessName: text(255),
  messengerId: text(120),
  instagramId: text(120),
  hubId: text(120),
  telegramId: text(120),
  ...contactPluginFields,
  state: text(60),
  extraInfo: z
    .array(z.object({ name: z.string().trim().min(1).max(120), value: z.string().trim().max(2000) }).strict())
    .max(50)
    .optional(),
  blocked: z.boolean().optional(),
  chatbotBlocked: z.boolean().optional(),
  wallets: ids(50).optional(),
  tags: ids(100).optional(),
};

export const contactCreateBody = z.object(contactFields).strict();
export const contactUpdateBody = z.object(contactFields).partial().strict();
export type ContactInput = z.infer<typeof contactUpdateBody>;

const emailSchema = z.email();

type Prepared = Partial<Omit<ContactRow, 'id' | 'tenantId' | 'createdAt' | 'updatedAt'>> & { tags?: number[]; wallets?: number[] };

/** Validates the rules that have their own catalogue message and converts to stored values. */
export function prepareContact(input: ContactInput, order: DateOrder): Prepared {
  const out: Prepared = {};
  for (const [k, v] of Object.entries(input)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  if (input.number !== undefined && input.number !== null) {
    const n = normalizeContactNumber(input.number);
    if (!n.ok) throw new AppError('ERR_INVALID_NUMBER');
    out.number = n.number;
  }
  if (input.email) {
    if (!emailSchema.safeParse(input.email).success) throw new AppError('ERR_INVALID_EMAIL');
  }
  if (input.identity) {
    if (!cpfCnpjKind(input.identity)) throw new AppError('ERR_INVALID_CPF_CNPJ');
    out.identity = input.identity.toUpperCase();
  }
  if (input.birthday) {
    const d = parseBirthday(input.birthday, order);
    if (!d) throw new AppError('ERR_INVALID_DATE');
    out.birthday = d as ContactRow['birthday'];
  }
  if (input.tags) out.tags = [...new Set(input.tags)];
  if (input.wallets) out.wallets = [...new Set(input.wallets)];
  return out;
}

/** Every id must name a tag of the caller's tenant; another tenant's id is as unknown as a missing one. */
async function assertTags(em: EntityManager, tagIds: number[] | undefined) {
  if (tagIds?.length && (await em.count(Tag, { id: { $in: tagIds } })) !== tagIds.length) throw new AppError('ERR_NOT_FOUND');
}

async function assertUsers(em: EntityManager, userIds: number[] | undefined) {
  if (userIds?.length && (await em.count(User, { id: { $in: userIds } })) !== userIds.length) throw new AppError('ERR_NO_USER_FOUND');
}

export async function ongoingTicketId(em: EntityManager, tenantId: number, contactId: number): Promise<number | undefined> {
  const r = await em.execute<{ id: number }[]>(
    `SELECT id FROM tickets WHERE tenant_id = ? AND contact_id = ? AND status IN ('open','pending') ORDER BY id LIMIT 1`,
    [tenantId, contactId],
  );
  return r[0]?.id;
}

async function setTags(em: EntityManager, tenantId: number, contactId: number, tagIds: number[]) {
  await em.execute('DELETE FROM contact_tags WHERE tenant_id = ? AND contact_id = ?', [tenantId, contactId]);
  if (tagIds.length)
    await em.execute(`INSERT INTO contact_tags (tenant_id, contact_id, tag_id) SELECT tenant_id, ?, id FROM tags WHERE tenant_id = ? AND id IN (?)`, [contactId, tenantId, tagIds]);
}

async function setWallets(em: EntityManager, tenantId: number, contactId: number, userIds: number[]) {
  await em.execute('DELETE FROM contact_wallets WHERE tenant_id = ? AND contact_id = ?', [tenantId, contactId]);
  if (userIds.length)
    await em.execute(`INSERT INTO contact_wallets (tenant_id, contact_id, user_id) SELECT tenant_id, ?, id FROM users WHERE tenant_id = ? AND id IN (?)`, [contactId, tenantId, userIds]);
}

/**
 * The WhatsApp identity of a number points at the contact that holds it: an
 * explicitly saved number is the authority for who that number is, so an older
 * mapping (e.g. left by a merge or a ninth-digit fix) moves to this contact.
 */
async function claimWhatsappIdentity(em: EntityManager, tenantId: number, contactId: number, number: string) {
  await em.execute(
    `INSERT INTO contact_identities (tenant_id, kind, external_id, contact_id) VALUES (?, 'whatsapp', ?, ?)
     ON CONFLICT (tenant_id, kind, external_id) DO UPDATE SET contact_id = EXCLUDED.contact_id`,
    [tenantId, number, contactId],
  );
}

async function currentWallets(em: EntityManager, tenantId: number, contactId: number): Promise<number[]> {
  const r = await em.execute<{ user_id: number }[]>('SELECT user_id FROM contact_wallets WHERE tenant_id = ? AND contact_id = ? ORDER BY user_id', [tenantId, contactId]);
  return r.map((x) => x.user_id);
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

const publish = (kernel: Kernel, tenantId: number, event: string, data: unknown) => kernel.realtime.emit(tenantId, event, data, ['tenant']);

export async function loadContact(em: EntityManager, id: number): Promise<ContactRow> {
  const c = await em.findOne(Contact, { id });
  if (!c) throw new AppError('ERR_NO_CONTACT_FOUND');
  return c;
}

const flushDuplicate = (err: unknown) => {
  if (isUniqueViolation(err, 'contacts_number_key')) throw new AppError('ERR_DUPLICATED_CONTACT');
  throw err;
};

export async function createContact(kernel: Kernel, em: EntityManager, actor: Actor, input: z.infer<typeof contactCreateBody>, order: DateOrder): Promise<ContactOut> {
  const { own, values } = kernel.records.split('contact', input, PLUGIN_FIELDS);
  const p = prepareContact(own, order);
  const { tags, wallets, ...fields } = p;
  await assertTags(em, tags);
  await assertUsers(em, wallets);
  await kernel.records.check('contact', actor.tenantId, values);
  if (fields.number && (await em.count(Contact, { number: fields.number }))) throw new AppError('ERR_DUPLICATED_CONTACT');
  const created = await em
    .transactional(async (tx) => {
      const c = tx.create(Contact, { ...fields, tenantId: actor.tenantId, name: input.name } as ContactRow);
      await tx.flush();
      if (tags) await setTags(tx, actor.tenantId, c.id, tags);
      if (wallets) await setWallets(tx, actor.tenantId, c.id, wallets);
      if (c.number) await claimWhatsappIdentity(tx, actor.tenantId, c.id, c.number);
      return c;
    })
    .catch(flushDuplicate);
  await kernel.records.save('contact', actor.tenantId, created.id, values);
  const out = await contactOutOne(kernel, em, actor.tenantId, created);
  await publish(kernel, actor.tenantId, 'contact.created', out);
  return out;
}

export async function updateContact(kernel: Kernel, em: EntityManager, actor: Actor, id: number, input: ContactInput, order: DateOrder): Promise<ContactOut> {
  const c = await loadContact(em, id);
  const { own, values } = kernel.records.split('contact', input, PLUGIN_FIELDS);
  const p = prepareContact(own, order);
  const { tags, wallets, ...fields } = p;
  await assertTags(em, tags);
  await assertUsers(em, wallets);
  await kernel.records.check('contact', actor.tenantId, values, c.id);
  if (wallets && !isAdmin(actor.profile)) {
    // Reassigning the owners of a contact someone is attending right now is an admin's call (spec §5).
    const changed = !sameSet(wallets, await currentWallets(em, actor.tenantId, c.id));
    if (changed && (await ongoingTicketId(em, actor.tenantId, c.id))) throw new AppError('ERR_NO_PERMISSION');
  }
  const oldNumber = c.number ?? null;
  if (fields.number && fields.number !== oldNumber && (await em.count(Contact, { number: fields.number, id: { $ne: c.id } }))) throw new AppError('ERR_DUPLICATED_CONTACT');
  await em
    .transactional(async (tx) => {
      // The fork shares the request's identity map, so `c` is managed here too.
      tx.assign(c, fields);
      await tx.flush();
      if (tags) await setTags(tx, actor.tenantId, c.id, tags);
      if (wallets) await setWallets(tx, actor.tenantId, c.id, wallets);
      const newNumber = c.number ?? null;
      if (newNumber !== oldNumber) {
        if (oldNumber)
          await tx.execute(`DELETE FROM contact_identities WHERE tenant_id = ? AND kind = 'whatsapp' AND external_id = ? AND contact_id = ?`, [actor.tenantId, oldNumber, c.id]);
        if (newNumber) await claimWhatsappIdentity(tx, actor.tenantId, c.id, newNumber);
      }
    })
    .catch(flushDuplicate);
  await kernel.records.save('contact', actor.tenantId, c.id, values);
  const out = await contactOutOne(kernel, em, actor.tenantId, c);
  await publish(kernel, actor.tenantId, 'contact.updated', out);
  return out;
}

/** Sets `blocked` or `chatbotBlocked`. */
export async function setContactFlag(kernel: Kernel, em: EntityManager, actor: Actor, id: number, flag: 'blocked' | 'chatbotBlocked', value: boolean): Promise<ContactOut> {
  const c = await loadContact(em, id);
  c[flag] = value;
  await em.flush();
  const out = await contactOutOne(kernel, em, actor.tenantId, c);
  await publish(kernel, actor.tenantId, 'contact.updated', out);
  return out;
}

/** Deletes a contact; its identities, tags, wallets and tickets go with it (the schema cascades). */
export async function deleteContact(kernel: Kernel, em: EntityManager, actor: Actor, id: number): Promise<void> {
  const c = await loadContact(em, id);
  const out = await contactOutOne(kernel, em, actor.tenantId, c);
  await em.remove(c).flush();
  await publish(kernel, actor.tenantId, 'contact.deleted', out);
}

// ---------------------------------------------------------------- list

export const contactListQuery = z.object({
  searchParam: z.string().max(200).optional(),
  tags: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10})*$/, 'use ids separados por vírgula')
    .transform((s) => [...new Set(s.split(',').map(Number))])
    .optional(),
  wallets: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10})*$/, 'use ids separados por vírgula')
    .transform((s) => [...new Set(s.split(',').map(Number))])
    .optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(40),
  cursor: z.string().max(600).optional(),
});
export type ContactListQuery = z.infer<typeof contactListQuery>;

const encodeCursor = (k: string, id: number) => Buffer.from(JSON.stringify([k, id])).toString('base64url');
function decodeCursor(cursor: string): [string, number] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && typeof v[0] === 'string' && Number.isInteger(v[1])) return [v[0], v[1]];
  } catch {
    // fall through to the refusal below
  }
  throw new AppError('ERR_VALIDATION', { details: 'cursor inválido' });
}

/**
 * One page of contacts ordered by name. Keyset (`cursor`, from the previous
 * page's `nextCursor`) walks the (tenant_id, lower(name), id) index at the same
 * cost at any depth; `pageNumber` is kept for clients that jump to a page.
 */
export async function listContacts(kernel: Kernel, em: EntityManager, tenantId: number, q: ContactListQuery) {
  const where: string[] = ['c.tenant_id = ?'];
  const params: unknown[] = [tenantId];
  const term = q.searchParam?.trim();
  if (term) {
    const like = `%${escapeLike(term)}%`;
    const digits = term.replace(/\D/g, '');
    const numberLike = /^[\d\s()+.\-]+$/.test(term) && digits ? `%${digits}%` : like;
    where.push('(c.name ILIKE ? OR c.email ILIKE ? OR c.number LIKE ?)');
    params.push(like, like, numberLike);
  }
  if (q.tags?.length) {
    where.push('EXISTS (SELECT 1 FROM contact_tags ct WHERE ct.tenant_id = c.tenant_id AND ct.contact_id = c.id AND ct.tag_id IN (?))');
    params.push(q.tags);
  }
  if (q.wallets?.length) {
    where.push('EXISTS (SELECT 1 FROM contact_wallets cw WHERE cw.tenant_id = c.tenant_id AND cw.contact_id = c.id AND cw.user_id IN (?))');
    params.push(q.wallets);
  }
  const filter = where.join(' AND ');
  const pageWhere = [filter];
  const pageParams = [...params];
  if (q.cursor) {
    const [k, id] = decodeCursor(q.cursor);
    pageWhere.push('(lower(c.name), c.id) > (?, ?)');
    pageParams.push(k, id);
  }
  const offset = !q.cursor && q.pageNumber ? (q.pageNumber - 1) * q.limit : 0;
  const [page, total] = await Promise.all([
    em.execute<{ id: number; k: string }[]>(
      `SELECT c.id, lower(c.name) AS k FROM contacts c WHERE ${pageWhere.join(' AND ')} ORDER BY lower(c.name), c.id LIMIT ? OFFSET ?`,
      [...pageParams, q.limit + 1, offset],
    ),
    em.execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM contacts c WHERE ${filter}`, params),
  ]);
  const hasMore = page.length > q.limit;
  const rows = page.slice(0, q.limit);
  const entities = rows.length ? await em.find(Contact, { id: { $in: rows.map((r) => r.id) } }) : [];
  const byId = new Map(entities.map((e) => [e.id, e]));
  const ordered = rows.map((r) => byId.get(r.id)).filter((e): e is ContactRow => !!e);
  const last = rows[rows.length - 1];
  return {
    contacts: await contactsOut(kernel, em, tenantId, ordered),
    count: total[0]?.n ?? 0,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.k, last.id) : null,
  };
}

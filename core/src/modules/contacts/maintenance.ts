import type pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { withTx, type Sql } from '../../db/tx.ts';
import { Contact, type ExtraInfo } from '../conversations/entities.ts';
import { isUniqueViolation } from '../catalog/shared.ts';
import { brazilNinthDigitFix, numberProblem, type NumberProblem } from './phone.ts';
import { contactsOut, isAdmin, type Actor, type ContactOut } from './service.ts';

/**
 * Contact maintenance: duplicates and merge, the Brazilian ninth-digit fix and
 * the number validation report. Bulk work runs as set-based SQL on one pooled
 * connection; every statement names the tenant from the token.
 */

/** Whether the tenant has a connected official-API (WABA) channel: numbers must then match the account exactly. */
export async function officialApiActive(db: pg.Pool | Sql, tenantId: number): Promise<boolean> {
  const r = await db.query<{ on: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM channels WHERE tenant_id = $1 AND type = 'waba' AND status = 'connected' AND deleted_at IS NULL) AS on`,
    [tenantId],
  );
  return r.rows[0].on;
}

const publish = (kernel: Kernel, tenantId: number, event: string, data: unknown) => kernel.realtime.emit(tenantId, event, data, ['tenant']);

/** Serialised contacts by id, in the order given, through a tenant-scoped EntityManager. */
async function outputsById(kernel: Kernel, em: EntityManager, tenantId: number, ids: number[]): Promise<Map<number, ContactOut>> {
  const out = new Map<number, ContactOut>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await em.find(Contact, { id: { $in: chunk } });
    for (const c of await contactsOut(kernel, em, tenantId, rows)) out.set(c.id, c);
  }
  return out;
}

// ---------------------------------------------------------------- duplicates

export interface DuplicateGroup {
  reason: 'number' | 'email';
  key: string;
  contacts: ContactOut[];
}

/**
 * Groups of contacts that are probably one person: the same number once
 * formatting is stripped and the Brazilian ninth digit restored (in SQL, the
 * same rule as `duplicateKey`), or the same e-mail ignoring case.
 */
export async function findDuplicates(kernel: Kernel, em: EntityManager, tenantId: number, limit: number): Promise<{ groups: DuplicateGroup[] }> {
  const pool = kernel.db.pool;
  const [byNumber, byEmail] = await Promise.all([
    pool.query<{ key: string; ids: number[] }>(
      `WITH digits AS (
         SELECT id, regexp_replace(number, '\\D', '', 'g') AS d FROM contacts WHERE tenant_id = $1 AND number IS NOT NULL AND NOT is_group),
       keyed AS (
         SELECT id, CASE WHEN d ~ '^55[1-9][1-9][6-9][0-9]{7}$' THEN substr(d, 1, 4) || '9' || substr(d, 5) ELSE d END AS key FROM digits)
       SELECT key, array_agg(id ORDER BY id) AS ids FROM keyed WHERE key <> '' GROUP BY key HAVING count(*) > 1 ORDER BY key LIMIT $2`,
      [tenantId, limit],
    ),
    pool.query<{ key: string; ids: number[] }>(
      `SELECT lower(email) AS key, array_agg(id ORDER BY id) AS ids FROM contacts
        WHERE tenant_id = $1 AND email IS NOT NULL AND email <> '' GROUP BY lower(email) HAVING count(*) > 1 ORDER BY 1 LIMIT $2`,
      [tenantId, limit],
    ),
  ]);
  const ids = [...new Set([...byNumber.rows, ...byEmail.rows].flatMap((g) => g.ids))];
  const outs = await outputsById(kernel, em, tenantId, ids);
  const group = (reason: DuplicateGroup['reason']) => (g: { key: string; ids: number[] }) => ({
    reason,
    key: g.key,
    contacts: g.ids.map((id) => outs.get(id)).filter((c): c is ContactOut => !!c),
  });
  return { groups: [...byNumber.rows.map(group('number')), ...byEmail.rows.map(group('email'))] };
}

// ---------------------------------------------------------------- merge

const positiveId = z.number().int().positive().max(2_147_483_647);
export const mergeBody = z
  .object({ keepId: positiveId, mergeIds: z.array(positiveId).min(1).max(50) })
  .strict()
  .refine((b) => !b.mergeIds.includes(b.keepId), { message: 'keepId não pode estar em mergeIds', path: ['mergeIds'] });

/** Columns a merge fills on the kept contact when it has no value and a merged one has. */
const FILLED = ['number', 'email', 'identity', 'first_name', 'last_name', 'business_name', 'messenger_id', 'instagram_id', 'hub_id', 'telegram_id', 'profile_pic_url', 'state'] as const;

/**
 * Merges contacts into one, in a single transaction: tickets, messages,
 * identities, tags and wallets move to the kept contact, empty fields of the
 * kept contact take the first value found among the merged ones (in the order
 * given), extra information is joined by name, and the merged contacts are
 * deleted. Refused when it would leave two open/pending tickets of one contact
 * on one channel, and when it would change the wallets of a contact being
 * attended and the caller is not an admin.
 */
export async function mergeContacts(kernel: Kernel, em: EntityManager, actor: Actor, keepId: number, mergeIdsIn: number[]) {
  const { tenantId } = actor;
  const mergeIds = [...new Set(mergeIdsIn)];
  const all = [keepId, ...mergeIds];
  // Snapshots for the deleted-events, taken before the change.
  const before = await outputsById(kernel, em, tenantId, mergeIds);
  // Plugin fields (a lane…) go with the merge like the kernel's own: the kept contact's value, else the first merged one's.
  const pluginValues = await kernel.records.load('contact', tenantId, all);
  const carried: Record<string, unknown> = {};
  for (const field of kernel.records.fields('contact')) {
    if (pluginValues.get(keepId)?.[field] != null) continue;
    const value = mergeIds.map((id) => pluginValues.get(id)?.[field]).find((v) => v != null);
    if (value !== undefined) carried[field] = value;
  }
  const result = await withTx(kernel.db.pool, async (sql) => {
    const found = await sql.query<{ id: number; extra_info: ExtraInfo[] }>(
      'SELECT id, extra_info FROM contacts WHERE tenant_id = $1 AND id = ANY($2::int[]) ORDER BY id FOR UPDATE',
      [tenantId, all],
    );
    if (found.rowCount !== all.length) throw new AppError('ERR_NO_CONTACT_FOUND');

    const clash = await sql.query<{ ids: number[] }>(
      `SELECT array_agg(id ORDER BY id) AS ids FROM tickets
        WHERE tenant_id = $1 AND contact_id = ANY($2::int[]) AND status IN ('open','pending')
        GROUP BY COALESCE(channel_id, 0) HAVING count(*) > 1 LIMIT 1`,
      [tenantId, all],
    );
    if (clash.rowCount) throw new AppError('ERR_OTHER_OPEN_TICKET', {}, { ticketId: clash.rows[0].ids[0], ticketIds: clash.rows[0].ids });

    if (!isAdmin(actor.profile)) {
      const w = await sql.query<{ kept: number[]; merged: number[] }>(
        `SELECT coalesce(array_agg(DISTINCT user_id) FILTER (WHERE contact_id = $2), '{}') AS kept,
                coalesce(array_agg(DISTINCT user_id), '{}') AS merged
           FROM contact_wallets WHERE tenant_id = $1 AND contact_id = ANY($3::int[])`,
        [tenantId, keepId, all],
      );
      const walletsChange = w.rows[0].merged.length !== w.rows[0].kept.length;
      if (walletsChange) {
        const ongoing = await sql.query(`SELECT 1 FROM tickets WHERE tenant_id = $1 AND contact_id = ANY($2::int[]) AND status IN ('open','pending') LIMIT 1`, [tenantId, all]);
        if (ongoing.rowCount) throw new AppError('ERR_NO_PERMISSION');
      }
    }

    const fill = await sql.query<Record<string, string | number | null>>(
      `SELECT ${FILLED.map((c) => `(array_agg(c.${c} ORDER BY o.pos) FILTER (WHERE c.${c} IS NOT NULL AND c.${c} <> ''))[1] AS ${c}`).join(', ')},
              (array_agg(c.birthday ORDER BY o.pos) FILTER (WHERE c.birthday IS NOT NULL))[1]::text AS birthday
         FROM unnest($2::int[]) WITH ORDINALITY AS o(id, pos) JOIN contacts c ON c.id = o.id AND c.tenant_id = $1`,
      [tenantId, mergeIds],
    );
    const extraOf = new Map(found.rows.map((r) => [r.id, Array.isArray(r.extra_info) ? r.extra_info : []]));
    const extra = [...extraOf.get(keepId)!];
    for (const id of mergeIds)
      for (const item of extraOf.get(id)!) if (!extra.some((e) => e.name.toLowerCase() === item.name.toLowerCase())) extra.push(item);

    const moved = await sql.query<{ id: number }>('UPDATE tickets SET contact_id = $2, updated_at = now() WHERE tenant_id = $1 AND contact_id = ANY($3::int[]) RETURNING id', [tenantId, keepId, mergeIds]);
    await sql.query('UPDATE messages SET contact_id = $2 WHERE tenant_id = $1 AND contact_id = ANY($3::int[])', [tenantId, keepId, mergeIds]);
    await sql.query('UPDATE contact_identities SET contact_id = $2 WHERE tenant_id = $1 AND contact_id = ANY($3::int[])', [tenantId, keepId, mergeIds]);
    await sql.query(
      'INSERT INTO contact_tags (tenant_id, contact_id, tag_id) SELECT tenant_id, $2, tag_id FROM contact_tags WHERE tenant_id = $1 AND contact_id = ANY($3::int[]) ON CONFLICT DO NOTHING',
      [tenantId, keepId, mergeIds],
    );
    await sql.query(
      'INSERT INTO contact_wallets (tenant_id, contact_id, user_id) SELECT tenant_id, $2, user_id FROM contact_wallets WHERE tenant_id = $1 AND contact_id = ANY($3::int[]) ON CONFLICT DO NOTHING',
      [tenantId, keepId, mergeIds],
    );
    await sql.query('DELETE FROM contacts WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, mergeIds]);

    const f = fill.rows[0];
    const sets = FILLED.map((c, i) => `${c} = COALESCE(NULLIF(${c}, ''), $${i + 3})`);
    const updated = await sql.query<{ number: string | null }>(
      `UPDATE contacts SET ${sets.join(', ')},
              birthday = COALESCE(birthday, $${FILLED.length + 3}::date),
              extra_info = $${FILLED.length + 4}::jsonb,
              updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING number`,
      [tenantId, keepId, ...FILLED.map((c) => f[c]), f.birthday, JSON.stringify(extra)],
    );
    const number = updated.rows[0].number;
    if (number)
      await sql.query(
        `INSERT INTO contact_identities (tenant_id, kind, external_id, contact_id) VALUES ($1, 'whatsapp', $2, $3)
         ON CONFLICT (tenant_id, kind, external_id) DO UPDATE SET contact_id = EXCLUDED.contact_id`,
        [tenantId, number, keepId],
      );
    return { ticketIds: moved.rows.map((r) => r.id) };
  });

  const fresh = kernel.db.forTenant(tenantId);
  await kernel.records.save('contact', tenantId, keepId, carried);
  const contact = (await outputsById(kernel, fresh, tenantId, [keepId])).get(keepId)!;
  for (const id of mergeIds) await publish(kernel, tenantId, 'contact.deleted', before.get(id) ?? { id });
  await publish(kernel, tenantId, 'contact.updated', contact);
  await publish(kernel, tenantId, 'contact.merged', { keepId, mergedIds: mergeIds, ticketIds: result.ticketIds });
  return { contact, mergedIds: mergeIds, ticketsMoved: result.ticketIds.length, ticketIds: result.ticketIds };
}

// ---------------------------------------------------------------- ninth digit

export interface NinthDigitCandidate {
  id: number;
  name: string;
  number: string;
  fixedNumber: string;
  /** Another contact already has the fixed number: merge them instead. */
  conflictContactId: number | null;
}

async function ninthDigitCandidates(db: pg.Pool | Sql, tenantId: number, lock = false): Promise<NinthDigitCandidate[]> {
  const rows = await db.query<{ id: number; name: string; number: string }>(
    `SELECT id, name, number FROM contacts
      WHERE tenant_id = $1 AND NOT is_group AND number ~ '^55[1-9][1-9][6-9][0-9]{7}$' ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
    [tenantId],
  );
  const candidates = rows.rows.flatMap((r) => {
    const fixed = brazilNinthDigitFix(r.number);
    return fixed ? [{ id: r.id, name: r.name, number: r.number, fixedNumber: fixed, conflictContactId: null as number | null }] : [];
  });
  if (candidates.length) {
    const taken = await db.query<{ id: number; number: string }>('SELECT id, number FROM contacts WHERE tenant_id = $1 AND number = ANY($2::text[])', [
      tenantId,
      candidates.map((c) => c.fixedNumber),
    ]);
    const byNumber = new Map(taken.rows.map((t) => [t.number, t.id]));
    for (const c of candidates) c.conflictContactId = byNumber.get(c.fixedNumber) ?? null;
  }
  return candidates;
}

/** The dry run: which contacts the fix would change, and which it cannot because the fixed number is taken. */
export async function previewNinthDigit(kernel: Kernel, tenantId: number) {
  const officialApi = await officialApiActive(kernel.db.pool, tenantId);
  const candidates = await ninthDigitCandidates(kernel.db.pool, tenantId);
  return { officialApi, count: candidates.length, candidates };
}

/**
 * Adds the ninth digit to Brazilian mobiles stored without it. The old form
 * stays as a WhatsApp identity of the same contact, because WhatsApp may keep
 * delivering from it. Refused while an official-API channel is connected: there
 * the number must be exactly the account's.
 */
export async function applyNinthDigit(kernel: Kernel, actor: Actor) {
  const { tenantId } = actor;
  const pool = kernel.db.pool;
  if (await officialApiActive(pool, tenantId)) throw new AppError('ERR_NINTH_DIGIT_OFFICIAL_API');
  const result = await withTx(pool, async (sql) => {
    const candidates = await ninthDigitCandidates(sql, tenantId, true);
    const todo = candidates.filter((c) => c.conflictContactId === null);
    let fixedIds: number[] = [];
    if (todo.length) {
      const args = [tenantId, todo.map((c) => c.id), todo.map((c) => c.number), todo.map((c) => c.fixedNumber)];
      const updated = await sql.query<{ id: number }>(
        `UPDATE contacts c SET number = v.fixed, updated_at = now()
           FROM unnest($2::int[], $3::text[], $4::text[]) AS v(id, old, fixed)
          WHERE c.tenant_id = $1 AND c.id = v.id AND c.number = v.old RETURNING c.id`,
        args,
      );
      fixedIds = updated.rows.map((r) => r.id);
      await sql.query(
        `INSERT INTO contact_identities (tenant_id, kind, external_id, contact_id)
         SELECT $1, 'whatsapp', v.fixed, v.id FROM unnest($2::int[], $3::text[], $4::text[]) AS v(id, old, fixed)
         ON CONFLICT (tenant_id, kind, external_id) DO UPDATE SET contact_id = EXCLUDED.contact_id`,
        args,
      );
      await sql.query(
        `INSERT INTO contact_identities (tenant_id, kind, external_id, contact_id)
         SELECT $1, 'whatsapp', v.old, v.id FROM unnest($2::int[], $3::text[], $4::text[]) AS v(id, old, fixed)
         ON CONFLICT (tenant_id, kind, external_id) DO NOTHING`,
        args,
      );
    }
    return { checked: candidates.length, fixedIds, conflicts: candidates.filter((c) => c.conflictContactId !== null) };
  }).catch((err) => {
    // A contact created with a fixed number while this ran: nothing was changed; running again reports it as a conflict.
    if (isUniqueViolation(err, 'contacts_number_key')) throw new AppError('ERR_DUPLICATED_CONTACT');
    throw err;
  });
  const outs = await outputsById(kernel, kernel.db.forTenant(tenantId), tenantId, result.fixedIds);
  for (const c of outs.values()) await publish(kernel, tenantId, 'contact.updated', c);
  return { checked: result.checked, fixed: result.fixedIds.length, conflicts: result.conflicts.length, conflictList: result.conflicts, contacts: [...outs.values()] };
}

// ---------------------------------------------------------------- validation report

export interface InvalidNumber {
  id: number;
  name: string;
  number: string;
  problem: NumberProblem;
  /** For `missing_ninth_digit`: the number the fix would store. */
  fixedNumber?: string;
}

/**
 * "Validate contacts": checks every stored number (groups aside) against its
 * country's numbering plan. With an official-API channel connected, a Brazilian
 * mobile without the ninth digit is what the account uses, so it is not flagged.
 */
export async function validateNumbers(kernel: Kernel, tenantId: number, limit: number) {
  const pool = kernel.db.pool;
  const officialApi = await officialApiActive(pool, tenantId);
  const invalid: InvalidNumber[] = [];
  let checked = 0;
  let invalidCount = 0;
  for (let after = 0; ; ) {
    const batch = await pool.query<{ id: number; name: string; number: string }>(
      'SELECT id, name, number FROM contacts WHERE tenant_id = $1 AND NOT is_group AND number IS NOT NULL AND id > $2 ORDER BY id LIMIT 5000',
      [tenantId, after],
    );
    if (!batch.rowCount) break;
    for (const r of batch.rows) {
      checked++;
      let problem = numberProblem(r.number);
      if (problem === 'missing_ninth_digit' && officialApi) problem = null;
      if (!problem) continue;
      invalidCount++;
      if (invalid.length < limit) invalid.push({ id: r.id, name: r.name, number: r.number, problem, ...(problem === 'missing_ninth_digit' ? { fixedNumber: brazilNinthDigitFix(r.number)! } : {}) });
    }
    after = batch.rows[batch.rows.length - 1].id;
  }
  const without = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts WHERE tenant_id = $1 AND NOT is_group AND number IS NULL', [tenantId]);
  return { officialApi, checked, valid: checked - invalidCount, invalidCount, withoutNumber: without.rows[0].n, invalid };
}

/**
 * The inbound pipeline as one PostgreSQL function: dedup, contact upsert,
 * ticket find-or-create, message row and ticket counters in a single round
 * trip and a single transaction. At webhook rates the round trips, not the
 * work, were the cost (docs/performance.md B1). The advisory-lock keys are the same
 * strings the TypeScript paths use (`contact:…`, `ticket:…`, `msg:…`), so an
 * agent creating a ticket and an inbound message for the same contact
 * serialise against each other.
 */
export const INGEST_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION atende_next_protocol(p_tenant integer) RETURNS text LANGUAGE plpgsql AS $$
  DECLARE v bigint;
  BEGIN
    INSERT INTO protocol_counters (tenant_id, last) VALUES (p_tenant, 1)
      ON CONFLICT (tenant_id) DO UPDATE SET last = protocol_counters.last + 1 RETURNING last INTO v;
    RETURN to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD') || lpad(v::text, 6, '0');
  END $$`,
  `CREATE OR REPLACE FUNCTION atende_upsert_contact(p_tenant integer, p_kind text, p_ext text, p_number text, p_name text, p_pic text, p_aliases jsonb, p_is_group boolean)
   RETURNS integer LANGUAGE plpgsql AS $$
  DECLARE v_id integer; v_kinds text[]; v_exts text[];
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('contact:' || p_tenant || ':' || p_kind || ':' || p_ext, 0));
    SELECT array_agg(k), array_agg(e) INTO v_kinds, v_exts FROM (
      SELECT p_kind AS k, p_ext AS e
      UNION ALL SELECT a->>'kind', a->>'externalId' FROM jsonb_array_elements(COALESCE(p_aliases, '[]'::jsonb)) a) x;
    SELECT contact_id INTO v_id FROM contact_identities
     WHERE tenant_id = p_tenant AND (kind, external_id) IN (SELECT * FROM unnest(v_kinds, v_exts)) LIMIT 1;
    IF v_id IS NULL AND p_number IS NOT NULL THEN
      SELECT id INTO v_id FROM contacts WHERE tenant_id = p_tenant AND number = p_number;
    END IF;
    IF v_id IS NULL THEN
      INSERT INTO contacts (tenant_id, name, number, profile_pic_url, is_group, telegram_id, instagram_id, messenger_id, hub_id)
      VALUES (p_tenant, COALESCE(NULLIF(btrim(p_name), ''), p_number, p_ext), p_number, p_pic, p_is_group,
              CASE WHEN p_kind = 'telegram' THEN p_ext END, CASE WHEN p_kind = 'instagram' THEN p_ext END,
              CASE WHEN p_kind = 'messenger' THEN p_ext END, CASE WHEN p_kind = 'hub' THEN p_ext END)
      ON CONFLICT (tenant_id, number) WHERE number IS NOT NULL DO UPDATE SET updated_at = now()
      RETURNING id INTO v_id;
    ELSIF p_pic IS NOT NULL THEN
      UPDATE contacts SET profile_pic_url = p_pic WHERE tenant_id = p_tenant AND id = v_id AND profile_pic_url IS DISTINCT FROM p_pic;
    END IF;
    INSERT INTO contact_identities (tenant_id, kind, external_id, contact_id)
      SELECT p_tenant, k, e, v_id FROM unnest(v_kinds, v_exts) AS x(k, e) ON CONFLICT DO NOTHING;
    RETURN v_id;
  END $$`,
  `CREATE OR REPLACE FUNCTION atende_ingest(
     p_tenant integer, p_channel integer, p_provider_id text,
     p_from_kind text, p_from_ext text, p_from_number text, p_from_name text, p_from_pic text, p_aliases jsonb,
     p_group_kind text, p_group_ext text, p_group_name text,
     p_from_me boolean, p_body text, p_type text, p_media_url text, p_media_name text, p_media_type text,
     p_ts timestamptz, p_quoted text, p_data jsonb, p_preview text)
   RETURNS jsonb LANGUAGE plpgsql AS $$
  DECLARE
    v_queue integer; v_user integer; v_contact integer; v_participant integer; v_blocked boolean;
    v_ticket tickets%ROWTYPE; v_created boolean := false; v_msg messages%ROWTYPE; v_status text; v_rating integer;
    v_is_group boolean := p_group_ext IS NOT NULL;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('msg:' || p_tenant || ':' || p_channel || ':' || p_provider_id, 0));
    IF EXISTS (SELECT 1 FROM messages WHERE tenant_id = p_tenant AND channel_id = p_channel AND provider_id = p_provider_id) THEN
      RETURN jsonb_build_object('duplicate', true);
    END IF;
    SELECT queue_id, user_id INTO v_queue, v_user FROM channels WHERE tenant_id = p_tenant AND id = p_channel AND deleted_at IS NULL;
    IF NOT FOUND THEN RAISE EXCEPTION 'channel % not found for tenant %', p_channel, p_tenant USING ERRCODE = 'P0002'; END IF;
    IF v_is_group AND NOT p_from_me THEN
      v_participant := atende_upsert_contact(p_tenant, p_from_kind, p_from_ext, p_from_number, p_from_name, p_from_pic, p_aliases, false);
    END IF;
    IF v_is_group THEN
      v_contact := atende_upsert_contact(p_tenant, p_group_kind, p_group_ext, NULL, p_group_name, NULL, '[]'::jsonb, true);
    ELSE
      v_contact := atende_upsert_contact(p_tenant, p_from_kind, p_from_ext, p_from_number, p_from_name, p_from_pic, p_aliases, false);
    END IF;
    SELECT blocked INTO v_blocked FROM contacts WHERE id = v_contact;
    IF v_blocked AND NOT p_from_me THEN
      RETURN jsonb_build_object('duplicate', false, 'blocked', true, 'contactId', v_contact);
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('ticket:' || p_tenant || ':' || v_contact || ':' || p_channel, 0));
    SELECT * INTO v_ticket FROM tickets
     WHERE tenant_id = p_tenant AND contact_id = v_contact AND COALESCE(channel_id, 0) = p_channel AND status IN ('open','pending') FOR UPDATE;
    IF NOT FOUND THEN
      v_status := CASE WHEN v_user IS NOT NULL THEN 'open' ELSE 'pending' END;
      INSERT INTO tickets (tenant_id, contact_id, channel_id, queue_id, user_id, status, is_group, protocol)
        VALUES (p_tenant, v_contact, p_channel, v_queue, v_user, v_status, v_is_group, atende_next_protocol(p_tenant))
        RETURNING * INTO v_ticket;
      INSERT INTO ticket_logs (tenant_id, ticket_id, type, data)
        VALUES (p_tenant, v_ticket.id, 'created', jsonb_build_object('status', v_status, 'queueId', v_queue, 'userId', v_user));
      v_created := true;
    END IF;
    INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, provider_id, from_me, body, type, media_url, media_name, media_type, status, timestamp, quoted_id, data)
      VALUES (p_tenant, v_ticket.id, COALESCE(v_participant, v_contact), p_channel, p_provider_id, p_from_me, COALESCE(p_body, ''), p_type,
              p_media_url, p_media_name, p_media_type, CASE WHEN p_from_me THEN 'sent' ELSE 'received' END, COALESCE(p_ts, now()),
              (SELECT id FROM messages WHERE tenant_id = p_tenant AND channel_id = p_channel AND provider_id = p_quoted), COALESCE(p_data, '{}'::jsonb))
      RETURNING * INTO v_msg;
    IF NOT p_from_me AND v_ticket.rating_requested_at IS NOT NULL AND p_body ~ '^\\s*[0-5]\\s*$' THEN
      -- The customer answered the rating request: record it and close the ticket (spec §4).
      v_rating := btrim(p_body)::integer;
      UPDATE tickets SET rating = v_rating, status = 'closed', closed_at = now(), rating_requested_at = NULL WHERE id = v_ticket.id;
      INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES (p_tenant, v_ticket.id, 'rated', jsonb_build_object('rating', v_rating));
    END IF;
    UPDATE tickets SET
        unread_messages = unread_messages + CASE WHEN p_from_me THEN 0 ELSE 1 END,
        last_message = p_preview,
        last_message_at = GREATEST(last_message_at, COALESCE(p_ts, now())),
        answered = answered OR p_from_me,
        updated_at = now()
      WHERE id = v_ticket.id;
    RETURN jsonb_build_object('duplicate', false, 'message', to_jsonb(v_msg), 'ticketId', v_ticket.id, 'contactId', v_contact,
                              'created', v_created, 'ratingClosed', v_rating IS NOT NULL);
  END $$`,
];

/**
 * Several inbound messages in one transaction: one round trip and one WAL
 * flush for the lot, which is what lets a node ingest well past a thousand
 * messages a second (docs/performance.md B1). Items run in the given order (the caller
 * sorts them so that concurrent batches take locks in the same order); each
 * runs in its own subtransaction, so one bad item reports its error and the
 * others still commit. Batches stay under 64 items: more subtransactions in
 * one transaction overflow PostgreSQL's per-backend subxid cache and slow
 * every other session's snapshots.
 */
export const INGEST_BATCH_FUNCTION = `CREATE OR REPLACE FUNCTION atende_ingest_batch(p_items jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
  DECLARE v_item jsonb; v_out jsonb := '[]'::jsonb; v_r jsonb;
  BEGIN
    FOR v_item IN SELECT value FROM jsonb_array_elements(p_items) LOOP
      BEGIN
        v_r := atende_ingest(
          (v_item->>'tenant')::integer, (v_item->>'channel')::integer, v_item->>'providerId',
          v_item->>'fromKind', v_item->>'fromExt', v_item->>'fromNumber', v_item->>'fromName', v_item->>'fromPic', v_item->'aliases',
          v_item->>'groupKind', v_item->>'groupExt', v_item->>'groupName',
          (v_item->>'fromMe')::boolean, v_item->>'body', v_item->>'type', v_item->>'mediaUrl', v_item->>'mediaName', v_item->>'mediaType',
          (v_item->>'ts')::timestamptz, v_item->>'quoted', v_item->'data', v_item->>'preview');
      EXCEPTION WHEN OTHERS THEN
        v_r := jsonb_build_object('error', SQLERRM, 'code', SQLSTATE);
      END;
      v_out := v_out || jsonb_build_array(v_r);
    END LOOP;
    RETURN v_out;
  END $$`;

/**
 * One inbound item without the ticket counters: `atende_ingest` minus its
 * final `UPDATE tickets`, which was the costliest statement of the pipeline
 * (3–6 ms on a loaded machine). `last_message_at` and `unread_messages` are
 * in the list and count indexes, so that update is never HOT: every one
 * writes a new ticket version into all nine indexes. Instead:
 * - a ticket created here is inserted with its first message's counters
 *   already set (the insert-then-update wrote the row and its indexes twice);
 * - otherwise the result carries the counter change (`_tk`) and
 *   `atende_ingest_batch` applies it once per ticket per batch.
 * Same locks, in the same order, as `atende_ingest`.
 */
export const INGEST_ONE_FUNCTION = `CREATE OR REPLACE FUNCTION atende_ingest_one(
     p_tenant integer, p_channel integer, p_provider_id text,
     p_from_kind text, p_from_ext text, p_from_number text, p_from_name text, p_from_pic text, p_aliases jsonb,
     p_group_kind text, p_group_ext text, p_group_name text,
     p_from_me boolean, p_body text, p_type text, p_media_url text, p_media_name text, p_media_type text,
     p_ts timestamptz, p_quoted text, p_data jsonb, p_preview text)
   RETURNS jsonb LANGUAGE plpgsql AS $$
  DECLARE
    v_queue integer; v_user integer; v_contact integer; v_participant integer; v_blocked boolean;
    v_ticket tickets%ROWTYPE; v_created boolean := false; v_msg messages%ROWTYPE; v_status text; v_rating integer;
    v_is_group boolean := p_group_ext IS NOT NULL;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('msg:' || p_tenant || ':' || p_channel || ':' || p_provider_id, 0));
    IF EXISTS (SELECT 1 FROM messages WHERE tenant_id = p_tenant AND channel_id = p_channel AND provider_id = p_provider_id) THEN
      RETURN jsonb_build_object('duplicate', true);
    END IF;
    SELECT queue_id, user_id INTO v_queue, v_user FROM channels WHERE tenant_id = p_tenant AND id = p_channel AND deleted_at IS NULL;
    IF NOT FOUND THEN RAISE EXCEPTION 'channel % not found for tenant %', p_channel, p_tenant USING ERRCODE = 'P0002'; END IF;
    IF v_is_group AND NOT p_from_me THEN
      v_participant := atende_upsert_contact(p_tenant, p_from_kind, p_from_ext, p_from_number, p_from_name, p_from_pic, p_aliases, false);
    END IF;
    IF v_is_group THEN
      v_contact := atende_upsert_contact(p_tenant, p_group_kind, p_group_ext, NULL, p_group_name, NULL, '[]'::jsonb, true);
    ELSE
      v_contact := atende_upsert_contact(p_tenant, p_from_kind, p_from_ext, p_from_number, p_from_name, p_from_pic, p_aliases, false);
    END IF;
    SELECT blocked INTO v_blocked FROM contacts WHERE id = v_contact;
    IF v_blocked AND NOT p_from_me THEN
      RETURN jsonb_build_object('duplicate', false, 'blocked', true, 'contactId', v_contact);
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('ticket:' || p_tenant || ':' || v_contact || ':' || p_channel, 0));
    SELECT * INTO v_ticket FROM tickets
     WHERE tenant_id = p_tenant AND contact_id = v_contact AND COALESCE(channel_id, 0) = p_channel AND status IN ('open','pending') FOR UPDATE;
    IF NOT FOUND THEN
      v_status := CASE WHEN v_user IS NOT NULL THEN 'open' ELSE 'pending' END;
      -- The counters of this first message go in with the row (see above); GREATEST keeps
      -- what the update did: last_message_at never before the ticket existed.
      INSERT INTO tickets (tenant_id, contact_id, channel_id, queue_id, user_id, status, is_group, protocol,
                           unread_messages, last_message, last_message_at, answered)
        VALUES (p_tenant, v_contact, p_channel, v_queue, v_user, v_status, v_is_group, atende_next_protocol(p_tenant),
                CASE WHEN p_from_me THEN 0 ELSE 1 END, p_preview, GREATEST(now(), COALESCE(p_ts, now())), p_from_me)
        RETURNING * INTO v_ticket;
      INSERT INTO ticket_logs (tenant_id, ticket_id, type, data)
        VALUES (p_tenant, v_ticket.id, 'created', jsonb_build_object('status', v_status, 'queueId', v_queue, 'userId', v_user));
      v_created := true;
    END IF;
    INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, provider_id, from_me, body, type, media_url, media_name, media_type, status, timestamp, quoted_id, data)
      VALUES (p_tenant, v_ticket.id, COALESCE(v_participant, v_contact), p_channel, p_provider_id, p_from_me, COALESCE(p_body, ''), p_type,
              p_media_url, p_media_name, p_media_type, CASE WHEN p_from_me THEN 'sent' ELSE 'received' END, COALESCE(p_ts, now()),
              (SELECT id FROM messages WHERE tenant_id = p_tenant AND channel_id = p_channel AND provider_id = p_quoted), COALESCE(p_data, '{}'::jsonb))
      RETURNING * INTO v_msg;
    IF NOT p_from_me AND v_ticket.rating_requested_at IS NOT NULL AND p_body ~ '^\\s*[0-5]\\s*$' THEN
      -- The customer answered the rating request: record it and close the ticket (spec §4).
      v_rating := btrim(p_body)::integer;
      UPDATE tickets SET rating = v_rating, status = 'closed', closed_at = now(), rating_requested_at = NULL WHERE id = v_ticket.id;
      INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES (p_tenant, v_ticket.id, 'rated', jsonb_build_object('rating', v_rating));
    END IF;
    RETURN jsonb_build_object('duplicate', false, 'message', to_jsonb(v_msg), 'ticketId', v_ticket.id, 'contactId', v_contact,
                              'created', v_created, 'ratingClosed', v_rating IS NOT NULL,
                              '_tk', CASE WHEN v_created THEN NULL ELSE jsonb_build_object('unread', CASE WHEN p_from_me THEN 0 ELSE 1 END,
                                     'ts', COALESCE(p_ts, now()), 'fromMe', p_from_me) END);
  END $$`;

/**
 * `atende_ingest_batch` with the ticket counters applied once per ticket at
 * the end (see INGEST_ONE_FUNCTION). Per ticket: unread grows by the
 * customer's messages, the preview is the last item's (items run in the
 * caller's order, as before), `last_message_at` never goes back, `answered`
 * once an own message went out. The ticket rows are still locked (FOR
 * UPDATE in each item), so nothing can change them in between. An item that
 * failed rolled back its own subtransaction and adds nothing. The `_tk`
 * field stays inside PostgreSQL.
 */
export const INGEST_BATCH_FUNCTION_V2 = `CREATE OR REPLACE FUNCTION atende_ingest_batch(p_items jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
  DECLARE
    v_item jsonb; v_out jsonb[] := '{}'; v_r jsonb; v_tk jsonb; v_id integer;
    v_acc jsonb := '{}'::jsonb; v_a jsonb; v_key text;
  BEGIN
    FOR v_item IN SELECT value FROM jsonb_array_elements(p_items) LOOP
      BEGIN
        v_r := atende_ingest_one(
          (v_item->>'tenant')::integer, (v_item->>'channel')::integer, v_item->>'providerId',
          v_item->>'fromKind', v_item->>'fromExt', v_item->>'fromNumber', v_item->>'fromName', v_item->>'fromPic', v_item->'aliases',
          v_item->>'groupKind', v_item->>'groupExt', v_item->>'groupName',
          (v_item->>'fromMe')::boolean, v_item->>'body', v_item->>'type', v_item->>'mediaUrl', v_item->>'mediaName', v_item->>'mediaType',
          (v_item->>'ts')::timestamptz, v_item->>'quoted', v_item->'data', v_item->>'preview');
      EXCEPTION WHEN OTHERS THEN
        v_r := jsonb_build_object('error', SQLERRM, 'code', SQLSTATE);
      END;
      v_tk := v_r->'_tk';
      IF v_tk IS NOT NULL AND jsonb_typeof(v_tk) = 'object' THEN
        v_key := v_r->>'ticketId';
        v_a := v_acc->v_key;
        v_acc := jsonb_set(v_acc, ARRAY[v_key], jsonb_build_object(
          'unread', COALESCE((v_a->>'unread')::integer, 0) + (v_tk->>'unread')::integer,
          'ts', GREATEST((v_a->>'ts')::timestamptz, (v_tk->>'ts')::timestamptz),
          'fromMe', COALESCE((v_a->>'fromMe')::boolean, false) OR (v_tk->>'fromMe')::boolean,
          'preview', v_item->>'preview'));
      END IF;
      v_r := v_r - '_tk';
      v_out := array_append(v_out, v_r);
    END LOOP;
    -- Ticket ids ascending: concurrent batches meet these rows in one order (they are already locked by this one).
    FOR v_key, v_a IN SELECT key, value FROM jsonb_each(v_acc) ORDER BY key::integer LOOP
      v_id := v_key::integer;
      UPDATE tickets SET
          unread_messages = unread_messages + (v_a->>'unread')::integer,
          last_message = v_a->>'preview',
          last_message_at = GREATEST(last_message_at, (v_a->>'ts')::timestamptz),
          answered = answered OR (v_a->>'fromMe')::boolean,
          updated_at = now()
        WHERE id = v_id;
    END LOOP;
    RETURN to_jsonb(v_out);
  END $$`;

/**
 * The channel's default user (its routing defaults, administration.md) is the one automatic assignment of a new
 * ticket. An agent who chose to pause or to be offline (presence.ts) does not get it: the ticket waits, pending, in
 * the channel's queue for whoever takes it, instead of sitting unseen in the hands of someone away. An agent who
 * merely has the app closed still gets it (they chose to be online; it is theirs when they come back); a deactivated
 * user never does (they cannot log in).
 */
const DEFAULTS_SELECT = 'SELECT queue_id, user_id INTO v_queue, v_user FROM channels WHERE tenant_id = p_tenant AND id = p_channel AND deleted_at IS NULL;';
const DEFAULTS_SELECT_AVAILABLE = `SELECT c.queue_id, u.id INTO v_queue, v_user FROM channels c
      LEFT JOIN users u ON u.tenant_id = c.tenant_id AND u.id = c.user_id AND u.active AND u.presence = 'online'
     WHERE c.tenant_id = p_tenant AND c.id = p_channel AND c.deleted_at IS NULL;`;
if (INGEST_ONE_FUNCTION.split(DEFAULTS_SELECT).length !== 2) throw new Error('ingest-sql: the default-user select moved');
export const INGEST_ONE_FUNCTION_V2 = INGEST_ONE_FUNCTION.replace(DEFAULTS_SELECT, DEFAULTS_SELECT_AVAILABLE);

-- Issue 12: the shared money functions run fewer statements per call.
--   * ledger_write_batch reads every key its call names that was applied before, in one statement
--     under the accounts' locks, instead of one lookup per transfer: the keys are looked up after
--     the locks as before, and a key another transaction writes meanwhile still meets the unique
--     index at the insert, as before.
--   * ledger_write_kept_groups tells "every group kept" by array containment before it lists the
--     kept transfers (a statement on every call, the common one included).
--   * play_rounds lists the written rounds in the loop that marks the replays (a statement less),
--     and deletes refused rounds only when a group was refused.
-- CREATE OR REPLACE drops a function's SET clauses, so each function states its own again.
CREATE OR REPLACE FUNCTION ledger_write_batch(
  p_account_ids bigint[],
  p_groups int[],
  p_keys text[],
  p_request_hashes text[],
  p_site_ids text[],
  p_user_ids bigint[],
  p_kinds text[],
  p_currencies text[],
  p_amounts bigint[],
  p_references text[],
  p_actors text[],
  p_reasons text[],
  p_streams text[],
  p_actions text[],
  p_payloads jsonb[],
  p_content_hashes text[],
  p_ats timestamptz[],
  p_posting_transfer int[],
  p_posting_accounts bigint[],
  p_posting_amounts bigint[]
) RETURNS json
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
DECLARE
  v_count int := coalesce(array_length(p_kinds, 1), 0);
  v_postings int := coalesce(array_length(p_posting_transfer, 1), 0);
  v_ids bigint[] := '{}';
  v_owners text[] := '{}';
  v_users bigint[] := '{}';
  v_types text[] := '{}';
  v_balances bigint[] := '{}';
  v_saved bigint[];
  -- Per transfer: its id (NULL when its group was refused) and whether it was a replay.
  v_transfer_ids bigint[] := array_fill(NULL::bigint, ARRAY[v_count]);
  v_replays boolean[] := array_fill(false, ARRAY[v_count]);
  v_new boolean[] := array_fill(false, ARRAY[v_count]);
  -- Per group, in order of appearance.
  v_group_status text[] := '{}';
  v_group_detail text[] := '{}';
  v_account record;
  v_head record;
  v_i int := 1;
  v_k int := 1;
  v_first int;
  v_group int;
  v_position int;
  v_refusal text;
  v_detail text;
  v_found_id bigint;
  v_found_hash text;
  v_touched int[];
  -- Keys of the transfers written by the groups accepted so far, and their positions.
  v_call_keys text[] := '{}';
  v_call_key_at int[] := '{}';
  -- Audit chaining: each stream's head as the call advances it, and the rows to insert.
  v_streams text[];
  v_stream_seq int[];
  v_stream_hash text[];
  v_audit_transfer int[] := '{}';
  v_audit_seq int[] := '{}';
  v_audit_prev text[] := '{}';
  v_audit_hash text[] := '{}';
  v_subject text;
  -- The keys of this call applied before it, with their transfers' ids and request hashes.
  v_known_keys text[];
  v_known_ids bigint[];
  v_known_hashes text[];
BEGIN
  FOR v_account IN
    SELECT id, owner_kind, user_id, type, balance_minor FROM ledger_accounts
    WHERE id = ANY(p_account_ids) ORDER BY id FOR NO KEY UPDATE
  LOOP
    v_ids := v_ids || v_account.id;
    v_owners := v_owners || v_account.owner_kind;
    v_users := v_users || v_account.user_id;
    v_types := v_types || v_account.type;
    v_balances := v_balances || v_account.balance_minor;
  END LOOP;
  IF coalesce(array_length(v_ids, 1), 0) <> coalesce(array_length(p_account_ids, 1), 0) THEN
    RETURN json_build_object('status', 'missing');
  END IF;
  -- Every key of the call applied before it, in one statement under the accounts' locks (a
  -- lookup per transfer cost a statement each).
  SELECT array_agg(idempotency_key), array_agg(id), array_agg(request_hash)
  INTO v_known_keys, v_known_ids, v_known_hashes
  FROM ledger_transfers WHERE idempotency_key = ANY (p_keys);

  WHILE v_i <= v_count LOOP
    v_group := p_groups[v_i];
    v_first := v_i;
    v_saved := v_balances;
    v_refusal := NULL;
    WHILE v_i <= v_count AND p_groups[v_i] = v_group LOOP
      IF v_refusal IS NULL AND p_keys[v_i] IS NOT NULL THEN
        -- A key applied before this call, or by a transfer of an earlier group of this call.
        v_position := array_position(v_known_keys, p_keys[v_i]);
        IF v_position IS NOT NULL THEN
          v_found_hash := v_known_hashes[v_position];
          v_found_id := v_known_ids[v_position];
        ELSE
          v_position := array_position(v_call_keys, p_keys[v_i]);
          v_found_hash := p_request_hashes[v_call_key_at[v_position]];
          v_found_id := v_transfer_ids[v_call_key_at[v_position]];
        END IF;
        IF v_found_id IS NOT NULL AND v_found_hash IS DISTINCT FROM p_request_hashes[v_i] THEN
          v_refusal := 'conflict';
          v_detail := p_keys[v_i];
        ELSIF v_found_id IS NOT NULL THEN
          v_transfer_ids[v_i] := v_found_id;
          v_replays[v_i] := true;
        END IF;
      END IF;
      -- The transfer's postings (they come in transfer order), applied together; then the player
      -- accounts they touched are checked.
      v_touched := '{}';
      WHILE v_k <= v_postings AND p_posting_transfer[v_k] = v_i LOOP
        IF v_refusal IS NULL AND NOT v_replays[v_i] THEN
          v_position := array_position(v_ids, p_posting_accounts[v_k]);
          v_balances[v_position] := v_balances[v_position] + p_posting_amounts[v_k];
          v_touched := v_touched || v_position;
        END IF;
        v_k := v_k + 1;
      END LOOP;
      IF v_refusal IS NULL AND NOT v_replays[v_i] THEN
        FOREACH v_position IN ARRAY v_touched LOOP
          IF v_owners[v_position] = 'player' AND v_balances[v_position] < 0 THEN
            v_refusal := 'insufficient';
            v_detail := v_types[v_position];
            EXIT;
          END IF;
        END LOOP;
        IF v_refusal IS NULL THEN
          v_new[v_i] := true;
          v_transfer_ids[v_i] := nextval('ledger_transfers_id_seq');
        END IF;
      END IF;
      v_i := v_i + 1;
    END LOOP;
    IF v_refusal IS NULL THEN
      v_group_status := v_group_status || 'ok'::text;
      v_group_detail := v_group_detail || NULL::text;
      FOR t IN v_first..v_i - 1 LOOP
        IF v_new[t] AND p_keys[t] IS NOT NULL THEN
          v_call_keys := v_call_keys || p_keys[t];
          v_call_key_at := v_call_key_at || t;
        END IF;
      END LOOP;
    ELSE
      -- The whole group is undone: balances as before it, none of its transfers written.
      v_balances := v_saved;
      FOR t IN v_first..v_i - 1 LOOP
        v_new[t] := false;
        v_replays[t] := false;
        v_transfer_ids[t] := NULL;
      END LOOP;
      v_group_status := v_group_status || v_refusal;
      v_group_detail := v_group_detail || v_detail;
    END IF;
  END LOOP;
  IF v_k <= v_postings THEN
    RAISE EXCEPTION 'ledger_write_batch: postings out of transfer order';
  END IF;

  IF true = ANY(v_new) THEN
    INSERT INTO ledger_transfers (id, site_id, user_id, kind, currency, amount_minor, idempotency_key, request_hash, reference, actor, reason)
    SELECT v_transfer_ids[i], p_site_ids[i], p_user_ids[i], p_kinds[i], p_currencies[i], p_amounts[i],
      p_keys[i], CASE WHEN p_keys[i] IS NULL THEN NULL ELSE p_request_hashes[i] END, p_references[i], p_actors[i], p_reasons[i]
    FROM generate_series(1, v_count) AS i
    WHERE v_new[i]
    ORDER BY i;

    INSERT INTO ledger_postings (transfer_id, account_id, currency, amount_minor)
    SELECT v_transfer_ids[p_posting_transfer[k]], p_posting_accounts[k], p_currencies[p_posting_transfer[k]], p_posting_amounts[k]
    FROM generate_series(1, v_postings) AS k
    WHERE v_new[p_posting_transfer[k]]
    ORDER BY k;

    UPDATE ledger_accounts AS a SET balance_minor = b.balance
    FROM unnest(v_ids, v_balances) AS b(id, balance)
    WHERE a.id = b.id AND a.balance_minor <> b.balance;

    -- Each stream's head, read once under the locks, then advanced here entry by entry.
    SELECT array_agg(s.stream ORDER BY s.stream), array_agg(coalesce(h.seq, 0) ORDER BY s.stream),
      array_agg(coalesce(h.hash, repeat('0', 64)) ORDER BY s.stream)
    INTO v_streams, v_stream_seq, v_stream_hash
    FROM (SELECT DISTINCT p_streams[i] AS stream FROM generate_series(1, v_count) AS i WHERE v_new[i]) AS s
    LEFT JOIN LATERAL (SELECT seq, hash FROM audit_log WHERE audit_log.stream = s.stream ORDER BY seq DESC LIMIT 1) AS h ON true;
    FOR i IN 1..v_count LOOP
      CONTINUE WHEN NOT v_new[i];
      v_position := array_position(v_streams, p_streams[i]);
      v_subject := 'transfer:' || v_transfer_ids[i];
      v_audit_transfer := v_audit_transfer || i;
      v_audit_seq := v_audit_seq || (v_stream_seq[v_position] + 1);
      v_audit_prev := v_audit_prev || v_stream_hash[v_position];
      v_stream_seq[v_position] := v_stream_seq[v_position] + 1;
      v_stream_hash[v_position] := encode(sha256(convert_to(v_stream_hash[v_position] || '|' || p_streams[i] || '|'
        || v_stream_seq[v_position] || '|' || v_subject || '|' || p_content_hashes[i], 'UTF8')), 'hex');
      v_audit_hash := v_audit_hash || v_stream_hash[v_position];
    END LOOP;
    INSERT INTO audit_log (stream, seq, at, actor, action, subject, reason, payload, prev_hash, hash, hash_version)
    SELECT p_streams[a.t], a.seq, p_ats[a.t], p_actors[a.t], p_actions[a.t], 'transfer:' || v_transfer_ids[a.t], p_reasons[a.t],
      p_payloads[a.t], a.prev, a.hash, 2
    FROM unnest(v_audit_transfer, v_audit_seq, v_audit_prev, v_audit_hash) AS a(t, seq, prev, hash)
    ORDER BY a.t;
  END IF;

  RETURN json_build_object(
    'status', 'ok',
    'groups', to_json(v_group_status),
    'details', to_json(v_group_detail),
    'ids', to_json(v_transfer_ids),
    'replays', to_json(v_replays),
    'accounts', (
      SELECT json_agg(json_build_object('id', v_ids[j], 'ownerKind', v_owners[j], 'userId', v_users[j], 'type', v_types[j],
        'balanceMinor', v_balances[j]::text) ORDER BY j)
      FROM generate_series(1, coalesce(array_length(v_ids, 1), 0)) AS j));
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_write_kept_groups(
  p_kept int[],
  p_account_ids bigint[],
  p_groups int[],
  p_keys text[],
  p_request_hashes text[],
  p_site_ids text[],
  p_user_ids bigint[],
  p_kinds text[],
  p_currencies text[],
  p_amounts bigint[],
  p_references text[],
  p_actors text[],
  p_reasons text[],
  p_streams text[],
  p_actions text[],
  p_payloads jsonb[],
  p_content_hashes text[],
  p_ats timestamptz[],
  p_posting_transfer int[],
  p_posting_accounts bigint[],
  p_posting_amounts bigint[]
) RETURNS json
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  v_count int := coalesce(array_length(p_groups, 1), 0);
  v_transfers int[];
BEGIN
  -- Every group kept (a call that dropped nothing): the arguments as they came, without a statement.
  IF p_groups <@ p_kept THEN
    RETURN ledger_write_batch(p_account_ids, p_groups, p_keys, p_request_hashes, p_site_ids, p_user_ids, p_kinds, p_currencies,
      p_amounts, p_references, p_actors, p_reasons, p_streams, p_actions, p_payloads, p_content_hashes, p_ats, p_posting_transfer,
      p_posting_accounts, p_posting_amounts);
  END IF;
  v_transfers := ARRAY(SELECT t FROM generate_series(1, v_count) AS t WHERE p_groups[t] = ANY (p_kept) ORDER BY t);
  RETURN ledger_write_batch(
    p_account_ids,
    ARRAY(SELECT p_groups[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_keys[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_request_hashes[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_site_ids[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_user_ids[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_kinds[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_currencies[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_amounts[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_references[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_actors[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_reasons[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_streams[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_actions[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_payloads[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_content_hashes[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT p_ats[t] FROM unnest(v_transfers) WITH ORDINALITY AS u(t, o) ORDER BY o),
    ARRAY(SELECT array_position(v_transfers, p_posting_transfer[k]) FROM generate_series(1, cardinality(p_posting_transfer)) AS k
      WHERE p_posting_transfer[k] = ANY (v_transfers) ORDER BY k),
    ARRAY(SELECT p_posting_accounts[k] FROM generate_series(1, cardinality(p_posting_transfer)) AS k
      WHERE p_posting_transfer[k] = ANY (v_transfers) ORDER BY k),
    ARRAY(SELECT p_posting_amounts[k] FROM generate_series(1, cardinality(p_posting_transfer)) AS k
      WHERE p_posting_transfer[k] = ANY (v_transfers) ORDER BY k));
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION play_rounds(
  p_sites text[],
  p_owner_keys text[],
  p_owner_users bigint[],
  p_seed_ids bigint[],
  p_client_seeds text[],
  p_nonces int[],
  p_round_ids bigint[],
  p_sysnames text[],
  p_engines text[],
  p_round_currencies text[],
  p_stakes bigint[],
  p_payouts bigint[],
  p_bets jsonb[],
  p_outcomes jsonb[],
  p_request_keys text[],
  p_round_hashes text[],
  p_settled_at timestamptz,
  p_account_ids bigint[],
  p_groups int[],
  p_keys text[],
  p_request_hashes text[],
  p_site_ids text[],
  p_user_ids bigint[],
  p_kinds text[],
  p_currencies text[],
  p_amounts bigint[],
  p_references text[],
  p_actors text[],
  p_reasons text[],
  p_streams text[],
  p_actions text[],
  p_payloads jsonb[],
  p_content_hashes text[],
  p_ats timestamptz[],
  p_posting_transfer int[],
  p_posting_accounts bigint[],
  p_posting_amounts bigint[]
) RETURNS json
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  v_n int := coalesce(array_length(p_round_ids, 1), 0);
  -- Without an active seed an item stays 'alone': its first round opens the pair on the single path.
  v_status text[] := array_fill('alone'::text, ARRAY[v_n]);
  v_seed_hashes text[] := array_fill(NULL::text, ARRAY[v_n]);
  v_seeds json[] := array_fill(NULL::json, ARRAY[v_n]);
  v_next_ids bigint[] := array_fill(NULL::bigint, ARRAY[v_n]);
  v_created float8[] := array_fill(NULL::float8, ARRAY[v_n]);
  v_bets jsonb[] := array_fill(NULL::jsonb, ARRAY[v_n]);
  v_outcomes jsonb[] := array_fill(NULL::jsonb, ARRAY[v_n]);
  v_written int[] := '{}';
  v_refused boolean := false;
  v_outcome jsonb;
  v_group_status text;
  v_row record;
  v_i int;
  v_k int;
BEGIN
  -- 1. The seeds, locked in id order (the lock every round and rotation of an owner queues on).
  FOR v_row IN
    SELECT q.i, s.id, s.server_seed, s.server_seed_hash, s.client_seed, s.next_nonce,
      EXISTS (SELECT 1 FROM bonuses b WHERE b.site_id = s.site_id AND b.user_id = s.user_id AND b.status = 'active'
        AND b.type = 'casino') AS has_wagered_bonus
    FROM unnest(p_sites, p_owner_keys) WITH ORDINALITY AS q(site_id, owner_key, i)
    JOIN fair_seeds s ON s.site_id = q.site_id AND s.owner_key = q.owner_key AND s.revealed_at IS NULL
    ORDER BY s.id
    FOR UPDATE OF s
  LOOP
    IF v_row.has_wagered_bonus THEN
      CONTINUE;
    ELSIF v_row.id = p_seed_ids[v_row.i] AND v_row.client_seed = p_client_seeds[v_row.i] AND v_row.next_nonce = p_nonces[v_row.i]
    THEN
      v_status[v_row.i] := 'ok';
      v_seed_hashes[v_row.i] := v_row.server_seed_hash;
    ELSE
      v_status[v_row.i] := 'stale';
      v_seeds[v_row.i] := json_build_object('id', v_row.id, 'serverSeed', v_row.server_seed, 'serverSeedHash',
        v_row.server_seed_hash, 'clientSeed', v_row.client_seed, 'nonce', v_row.next_nonce);
      v_next_ids[v_row.i] := nextval('game_rounds_id_seq');
    END IF;
  END LOOP;

  -- 2. The rounds, settled; one whose request id was played before is not written.
  FOR v_row IN
    INSERT INTO game_rounds (id, site_id, owner_key, user_id, sysname, engine, mode, currency, stake_minor, payout_minor,
      seed_id, server_seed_hash, client_seed, nonce, bet, outcome, status, request_key, request_hash, settled_at)
    SELECT p_round_ids[i], p_sites[i], p_owner_keys[i], p_owner_users[i], p_sysnames[i], p_engines[i], 'real',
      p_round_currencies[i], p_stakes[i], p_payouts[i], p_seed_ids[i], v_seed_hashes[i], p_client_seeds[i], p_nonces[i],
      p_bets[i], p_outcomes[i], 'settled', p_request_keys[i], p_round_hashes[i], p_settled_at
    FROM generate_series(1, v_n) AS i WHERE v_status[i] = 'ok' ORDER BY i
    ON CONFLICT (site_id, owner_key, request_key) DO NOTHING
    RETURNING id, bet, outcome, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms
  LOOP
    v_i := array_position(p_round_ids, v_row.id);
    v_created[v_i] := v_row.created_ms;
    v_bets[v_i] := v_row.bet;
    v_outcomes[v_i] := v_row.outcome;
  END LOOP;
  FOR v_i IN 1..v_n LOOP
    IF v_status[v_i] <> 'ok' THEN
      CONTINUE;
    ELSIF v_created[v_i] IS NULL THEN
      v_status[v_i] := 'alone';
    ELSE
      v_written := v_written || v_i;
    END IF;
  END LOOP;

  -- 3. The money of the written rounds, a group each.
  IF cardinality(v_written) > 0 THEN
    v_outcome := ledger_write_kept_groups(v_written, p_account_ids, p_groups, p_keys, p_request_hashes, p_site_ids, p_user_ids,
      p_kinds, p_currencies, p_amounts, p_references, p_actors, p_reasons, p_streams, p_actions, p_payloads, p_content_hashes,
      p_ats, p_posting_transfer, p_posting_accounts, p_posting_amounts)::jsonb;
    IF v_outcome->>'status' <> 'ok' THEN
      RAISE EXCEPTION 'a ledger account of a shared round is missing' USING ERRCODE = 'GR001';
    END IF;
    FOR v_k IN 1..cardinality(v_written) LOOP
      v_group_status := v_outcome->'groups'->>(v_k - 1);
      IF v_group_status <> 'ok' THEN
        v_status[v_written[v_k]] := v_group_status;
        v_refused := true;
      END IF;
    END LOOP;
    IF v_refused THEN
      DELETE FROM game_rounds WHERE id IN (SELECT p_round_ids[i] FROM unnest(v_written) AS i WHERE v_status[i] <> 'ok');
    END IF;

    -- 4. The played seeds' nonces, and each owner's next round id drawn under its lock.
    UPDATE fair_seeds SET next_nonce = next_nonce + 1
    WHERE id IN (SELECT p_seed_ids[i] FROM unnest(v_written) AS i WHERE v_status[i] = 'ok');
    FOR v_k IN 1..cardinality(v_written) LOOP
      IF v_status[v_written[v_k]] = 'ok' THEN
        v_next_ids[v_written[v_k]] := nextval('game_rounds_id_seq');
      END IF;
    END LOOP;
  END IF;

  RETURN json_build_object('statuses', to_json(v_status), 'seeds', to_json(v_seeds), 'nextRoundIds', to_json(v_next_ids),
    'created', to_json(v_created), 'bets', to_json(v_bets), 'outcomes', to_json(v_outcomes), 'kept', to_json(v_written),
    'ledger', v_outcome);
END
$$;

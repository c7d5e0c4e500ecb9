-- Issue 12: ledger_write_batch takes several callers' batches ("groups") in one call, so transfers
-- that arrive together share one round trip, one lock statement and one commit (group commit,
-- server/modules/wallet/transfer-groups.ts). Each group stays all or nothing on its own: a group
-- refused for funds or for a key bound to another request leaves the balances as they were before
-- it and the next group goes on. A group's transfers are contiguous in the arrays and the groups
-- ascend (p_groups). What a group gets back:
--   'ok'           its transfers' ids (a replayed key answers the first transfer's id) and replays;
--   'insufficient' a player account of it would go below zero (detail: the account's type);
--   'conflict'     a key of it was applied before for another request (detail: the key).
-- The locks, the replay check, the writes and the audit chain are as in migration 0024, with two
-- changes that keep a call's cost flat in its size: postings are walked once (they come in
-- transfer order), and the audit entries are chained in memory from each stream's head, read in
-- one statement, and inserted in one statement. Every transfer carries its own time (p_ats): its
-- audit content hash was made with it.
DROP FUNCTION IF EXISTS ledger_write_batch(bigint[], text[], text[], text[], bigint[], text[], text[], bigint[], text[], text[],
  text[], text[], text[], jsonb[], text[], timestamptz, int[], bigint[], bigint[]);
--> statement-breakpoint
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
LANGUAGE plpgsql AS $$
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
  v_applied record;
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

  WHILE v_i <= v_count LOOP
    v_group := p_groups[v_i];
    v_first := v_i;
    v_saved := v_balances;
    v_refusal := NULL;
    WHILE v_i <= v_count AND p_groups[v_i] = v_group LOOP
      IF v_refusal IS NULL AND p_keys[v_i] IS NOT NULL THEN
        -- A key applied before this call, or by a transfer of an earlier group of this call.
        SELECT id, request_hash INTO v_applied FROM ledger_transfers WHERE idempotency_key = p_keys[v_i];
        IF FOUND THEN
          v_found_hash := v_applied.request_hash;
          v_found_id := v_applied.id;
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

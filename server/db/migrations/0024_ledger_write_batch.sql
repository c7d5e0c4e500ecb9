ALTER TABLE "audit_log" ADD COLUMN "hash_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Issue 12: a batch of ledger transfers in one call to the database. The application resolves the
-- accounts, checks the legs and hashes each audit entry's content; this function then, in one
-- round trip (one statement, so without BEGIN and COMMIT when the caller has no transaction of its
-- own) and with the accounts' locks held only while it runs:
--   1. locks the accounts in id order (FOR NO KEY UPDATE: two batches over the same accounts queue);
--   2. answers a transfer whose idempotency key was applied before with the first transfer's id
--      (a key bound to another request: status 'conflict', nothing written);
--   3. applies each other transfer's postings in order and refuses the batch when a player account
--      would go below zero (status 'insufficient' with the account's type, nothing written);
--   4. writes the transfers, their postings (ids in leg order) and the new cached balances;
--   5. appends each transfer's audit entry to its stream, chained to the stream's head read under
--      the locks: hash = sha256(prev_hash|stream|seq|subject|content_hash), hash_version 2, which
--      the application's verifier recomputes (server/modules/wallet/audit.ts).
-- Every statement here takes a fresh snapshot after the locks, so it sees what the previous holder
-- of the locks committed. Parameters are per transfer (p_keys … p_content_hashes, 1-based) and per
-- posting (p_posting_*; p_posting_transfer names the transfer by its position).
CREATE OR REPLACE FUNCTION ledger_write_batch(
  p_account_ids bigint[],
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
  p_at timestamptz,
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
  v_transfer_ids bigint[] := '{}';
  v_replays boolean[] := '{}';
  v_account record;
  v_applied record;
  v_head record;
  v_position int;
  v_seq int;
  v_prev text;
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

  FOR i IN 1..v_count LOOP
    IF p_keys[i] IS NOT NULL THEN
      SELECT id, request_hash INTO v_applied FROM ledger_transfers WHERE idempotency_key = p_keys[i];
      IF FOUND THEN
        IF v_applied.request_hash IS DISTINCT FROM p_request_hashes[i] THEN
          RETURN json_build_object('status', 'conflict', 'key', p_keys[i]);
        END IF;
        v_transfer_ids := v_transfer_ids || v_applied.id;
        v_replays := v_replays || true;
        CONTINUE;
      END IF;
    END IF;
    FOR k IN 1..v_postings LOOP
      IF p_posting_transfer[k] = i THEN
        v_position := array_position(v_ids, p_posting_accounts[k]);
        v_balances[v_position] := v_balances[v_position] + p_posting_amounts[k];
      END IF;
    END LOOP;
    FOR j IN 1..coalesce(array_length(v_ids, 1), 0) LOOP
      IF v_owners[j] = 'player' AND v_balances[j] < 0 THEN
        RETURN json_build_object('status', 'insufficient', 'type', v_types[j]);
      END IF;
    END LOOP;
    v_transfer_ids := v_transfer_ids || nextval('ledger_transfers_id_seq');
    v_replays := v_replays || false;
  END LOOP;

  IF false = ANY(v_replays) THEN
    INSERT INTO ledger_transfers (id, site_id, user_id, kind, currency, amount_minor, idempotency_key, request_hash, reference, actor, reason)
    SELECT v_transfer_ids[i], p_site_ids[i], p_user_ids[i], p_kinds[i], p_currencies[i], p_amounts[i],
      p_keys[i], CASE WHEN p_keys[i] IS NULL THEN NULL ELSE p_request_hashes[i] END, p_references[i], p_actors[i], p_reasons[i]
    FROM generate_series(1, v_count) AS i
    WHERE NOT v_replays[i]
    ORDER BY i;

    INSERT INTO ledger_postings (transfer_id, account_id, currency, amount_minor)
    SELECT v_transfer_ids[p_posting_transfer[k]], p_posting_accounts[k], p_currencies[p_posting_transfer[k]], p_posting_amounts[k]
    FROM generate_series(1, v_postings) AS k
    WHERE NOT v_replays[p_posting_transfer[k]]
    ORDER BY k;

    UPDATE ledger_accounts AS a SET balance_minor = b.balance
    FROM unnest(v_ids, v_balances) AS b(id, balance)
    WHERE a.id = b.id AND a.balance_minor <> b.balance;

    FOR i IN 1..v_count LOOP
      CONTINUE WHEN v_replays[i];
      SELECT seq, hash INTO v_head FROM audit_log WHERE stream = p_streams[i] ORDER BY seq DESC LIMIT 1;
      IF FOUND THEN
        v_seq := v_head.seq + 1;
        v_prev := v_head.hash;
      ELSE
        v_seq := 1;
        v_prev := repeat('0', 64);
      END IF;
      v_subject := 'transfer:' || v_transfer_ids[i];
      INSERT INTO audit_log (stream, seq, at, actor, action, subject, reason, payload, prev_hash, hash, hash_version)
      VALUES (p_streams[i], v_seq, p_at, p_actors[i], p_actions[i], v_subject, p_reasons[i], p_payloads[i], v_prev,
        encode(sha256(convert_to(v_prev || '|' || p_streams[i] || '|' || v_seq || '|' || v_subject || '|' || p_content_hashes[i], 'UTF8')), 'hex'),
        2);
    END LOOP;
  END IF;

  RETURN json_build_object(
    'status', 'ok',
    'ids', to_json(v_transfer_ids),
    'replays', to_json(v_replays),
    'accounts', (
      SELECT json_agg(json_build_object('id', v_ids[j], 'ownerKind', v_owners[j], 'userId', v_users[j], 'type', v_types[j],
        'balanceMinor', v_balances[j]::text) ORDER BY j)
      FROM generate_series(1, coalesce(array_length(v_ids, 1), 0)) AS j));
END
$$;

-- Issue 12: several players' real-money one-request rounds in one statement
-- (game-rounds/shared-rounds.ts). A shared call was a transaction of five round trips (BEGIN, the
-- seeds locked, the rounds written, the ledger call, COMMIT) because a round's outcome needs its
-- seed before anything is written. The process now keeps each owner's active seed pair, its next
-- nonce and an id drawn for its next round, plays the round on them, and this function checks
-- them under the seed's lock: a round is written only on the seed, client seed and nonce it was
-- played on, so it is exactly the round a transaction would have played. Each round ("item")
-- stays all or nothing on its own and gets the row, transfers, keys and audit entries the single
-- path (service.ts play) writes. Every step is one statement for all items:
--   1. every owner's active seed pair locked in id order. An item whose owner wagers a casino
--      bonus (bonuses/funding.ts hasWageredBonusSql), or has no seed yet, is 'alone' (the single
--      path plays it); one played on another seed, client seed or nonce is 'stale' and gets the
--      seed as it is with a fresh id for its round (the process plays it again in its next call);
--   2. the rounds of the items going on, written settled; a request id its owner played before is
--      found by the request's unique index, and that item is 'alone' (the single path answers the
--      replay);
--   3. one ledger_write_batch call with a group per written round (its stake and payout; groups
--      numbered by item, as wallet ledgerCallArguments numbers them). A group refused for funds
--      is 'insufficient' and one whose key another request holds 'conflict': their rounds go;
--   4. the played seeds' nonces advanced, with an id drawn for each owner's next round.
-- An owner's rounds are ordered by id (recall, history): an id is drawn under the seed's lock and
-- used only at the nonce it was drawn for, and every round of the owner takes a nonce, so no
-- round of the owner can have taken a later id meanwhile.
-- A missing ledger account raises (GR001) and writes nothing: every item then plays alone.

-- ledger_write_batch for some of the groups its arguments carry (p_kept: the group numbers to
-- write, ascending), so a function that drops items after planning the ledger call needs no
-- second plan: the kept groups' transfers and postings, renumbered, in their order.
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
  v_transfers int[] := ARRAY(SELECT t FROM generate_series(1, v_count) AS t WHERE p_groups[t] = ANY (p_kept) ORDER BY t);
BEGIN
  IF cardinality(v_transfers) = v_count THEN
    RETURN ledger_write_batch(p_account_ids, p_groups, p_keys, p_request_hashes, p_site_ids, p_user_ids, p_kinds, p_currencies,
      p_amounts, p_references, p_actors, p_reasons, p_streams, p_actions, p_payloads, p_content_hashes, p_ats, p_posting_transfer,
      p_posting_accounts, p_posting_amounts);
  END IF;
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
  v_written int[];
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
  v_written := ARRAY(SELECT i FROM generate_series(1, v_n) AS i WHERE v_status[i] = 'ok' AND v_created[i] IS NOT NULL ORDER BY i);
  FOR v_i IN 1..v_n LOOP
    IF v_status[v_i] = 'ok' AND v_created[v_i] IS NULL THEN
      v_status[v_i] := 'alone';
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
      END IF;
    END LOOP;
    DELETE FROM game_rounds WHERE id IN (SELECT p_round_ids[i] FROM unnest(v_written) AS i WHERE v_status[i] <> 'ok');

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

-- Issue 12: providers' bets and wins, several players' at once, in one statement
-- (provider-wallet/shared-money.ts). A bet or win was six round trips: the session, BEGIN, the
-- round, the ledger call, the transaction's row, COMMIT; and the ledger call's own cost is mostly
-- fixed, so the requests waiting together share one. Each request ("item") stays all or nothing
-- on its own and gets the rows, transfer, keys and audit entry the transactional path
-- (service.ts applyInTransaction) writes. Every step is one statement for all items:
--   1. a transaction id taken before is 'seen' (its row decides the answer); a bet on an ended
--      session, on a round of another player, currency or ended, and a win without its round are
--      'refused' (code; currency: the round's for CURRENCY_MISMATCH); the rounds found are locked
--      in id order; the transaction ids of the items going on are taken (a twin elsewhere waits on
--      them from here on; one it took first is 'seen');
--   2. one ledger_write_batch call with a group per item still going that moves money (at most
--      one transfer each; ledger_write_batch's groups argument, here p_money_items, names each
--      transfer's item, ascending; the other arguments are ledger_write_batch's). A group refused
--      (funds, a key bound to another request) or found applied before is the item's 'ledger'
--      answer, and its transaction id is given back;
--   3. for the items going on: the balances after them, their answers recorded with them, their
--      stakes or payouts added to their rounds (a bet may open one).
-- Should another player open the same round meanwhile (PW002), or it be opened and ended
-- meanwhile (PW003), or a ledger account be missing (PW004), the statement raises and writes
-- nothing: every item then plays the transactional path. Locks: rounds in id order, then the
-- accounts in id order.
CREATE OR REPLACE FUNCTION provider_money(
  p_item_kinds text[],
  p_providers text[],
  p_tx_ids text[],
  p_round_ids text[],
  p_item_sites text[],
  p_item_users bigint[],
  p_item_sessions bigint[],
  p_item_currencies text[],
  p_item_amounts bigint[],
  p_item_hashes text[],
  p_answers jsonb[],
  p_account_ids bigint[],
  p_money_items int[],
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
  v_n int := coalesce(array_length(p_tx_ids, 1), 0);
  v_transfers int := coalesce(array_length(p_money_items, 1), 0);
  v_postings int := coalesce(array_length(p_posting_transfer, 1), 0);
  v_status text[] := array_fill('ok'::text, ARRAY[v_n]);
  v_code text[] := array_fill(NULL::text, ARRAY[v_n]);
  v_round_currency text[] := array_fill(NULL::text, ARRAY[v_n]);
  v_round_ids bigint[] := array_fill(NULL::bigint, ARRAY[v_n]);
  v_claims bigint[] := array_fill(NULL::bigint, ARRAY[v_n]);
  v_transfer_ids bigint[] := array_fill(NULL::bigint, ARRAY[v_n]);
  v_balances text[] := array_fill(NULL::text, ARRAY[v_n]);
  v_kept int[];
  v_kept_items int[] := '{}';
  v_outcome jsonb;
  v_row record;
  v_i int;
  v_k int;
BEGIN
  -- Transaction ids taken before.
  FOR v_row IN
    SELECT q.i FROM unnest(p_providers, p_tx_ids) WITH ORDINALITY AS q(provider, tx_id, i)
    JOIN provider_transactions t ON t.provider = q.provider AND t.tx_id = q.tx_id
  LOOP
    v_status[v_row.i] := 'seen';
  END LOOP;
  -- Bets on a session that has ended (closed since the process read it, or expired).
  FOR v_row IN
    SELECT q.i FROM unnest(p_item_kinds, p_item_sessions) WITH ORDINALITY AS q(kind, session_id, i)
    JOIN provider_sessions s ON s.id = q.session_id
    WHERE q.kind = 'bet' AND s.expires_at <= now()
  LOOP
    IF v_status[v_row.i] = 'ok' THEN
      v_status[v_row.i] := 'refused';
      v_code[v_row.i] := 'SESSION_EXPIRED';
    END IF;
  END LOOP;
  -- The rounds that exist, locked in id order, and checked.
  FOR v_row IN
    SELECT q.i, r.id, r.user_id, r.site_id, r.currency, r.ended_at
    FROM unnest(p_providers, p_round_ids) WITH ORDINALITY AS q(provider, round_id, i)
    JOIN provider_rounds r ON r.provider = q.provider AND r.round_id = q.round_id
    ORDER BY r.id
    FOR UPDATE OF r
  LOOP
    CONTINUE WHEN v_status[v_row.i] <> 'ok';
    v_round_ids[v_row.i] := v_row.id;
    IF v_row.user_id <> p_item_users[v_row.i] OR v_row.site_id <> p_item_sites[v_row.i] THEN
      v_code[v_row.i] := 'ROUND_NOT_FOUND';
    ELSIF v_row.currency <> p_item_currencies[v_row.i] THEN
      v_code[v_row.i] := 'CURRENCY_MISMATCH';
      v_round_currency[v_row.i] := v_row.currency;
    ELSIF p_item_kinds[v_row.i] = 'bet' AND v_row.ended_at IS NOT NULL THEN
      v_code[v_row.i] := 'ROUND_ENDED';
    END IF;
  END LOOP;
  FOR v_i IN 1..v_n LOOP
    IF v_status[v_i] = 'ok' AND v_code[v_i] IS NULL AND p_item_kinds[v_i] = 'win' AND v_round_ids[v_i] IS NULL THEN
      v_code[v_i] := 'ROUND_NOT_FOUND';
    END IF;
    IF v_status[v_i] = 'ok' AND v_code[v_i] IS NOT NULL THEN
      v_status[v_i] := 'refused';
    END IF;
  END LOOP;
  -- The transaction ids taken; one a twin elsewhere took first (or twice in this call) is 'seen'.
  FOR v_row IN
    INSERT INTO provider_transactions (provider, tx_id, kind, status, site_id, user_id, session_id, round_id, currency,
      amount_minor, request_hash)
    SELECT p_providers[i], p_tx_ids[i], p_item_kinds[i], 'applied', p_item_sites[i], p_item_users[i], p_item_sessions[i],
      p_round_ids[i], p_item_currencies[i], p_item_amounts[i], p_item_hashes[i]
    FROM generate_series(1, v_n) AS i WHERE v_status[i] = 'ok' ORDER BY i
    ON CONFLICT (provider, tx_id) DO NOTHING
    RETURNING id, provider, tx_id
  LOOP
    v_i := array_position(p_tx_ids, v_row.tx_id);
    WHILE NOT (p_providers[v_i] = v_row.provider AND v_status[v_i] = 'ok' AND v_claims[v_i] IS NULL) LOOP
      v_i := array_position(p_tx_ids, v_row.tx_id, v_i + 1);
    END LOOP;
    v_claims[v_i] := v_row.id;
  END LOOP;
  FOR v_i IN 1..v_n LOOP
    IF v_status[v_i] = 'ok' AND v_claims[v_i] IS NULL THEN
      v_status[v_i] := 'seen';
    END IF;
  END LOOP;

  -- The transfers of the items still going, renumbered 1..K in their order (one per item).
  SELECT array_agg(t ORDER BY t) INTO v_kept
  FROM generate_series(1, v_transfers) AS t WHERE v_status[p_money_items[t]] = 'ok';
  IF array_length(v_kept, 1) = v_transfers THEN
    -- Every transfer goes (the common case): the arguments as they came, item numbers for groups.
    v_outcome := ledger_write_batch(p_account_ids, p_money_items, p_keys, p_request_hashes, p_site_ids, p_user_ids, p_kinds,
      p_currencies, p_amounts, p_references, p_actors, p_reasons, p_streams, p_actions, p_payloads, p_content_hashes, p_ats,
      p_posting_transfer, p_posting_accounts, p_posting_amounts)::jsonb;
  ELSIF v_kept IS NOT NULL THEN
    v_outcome := ledger_write_batch(
      p_account_ids,
      ARRAY(SELECT o::int FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_keys[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_request_hashes[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_site_ids[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_user_ids[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_kinds[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_currencies[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_amounts[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_references[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_actors[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_reasons[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_streams[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_actions[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_payloads[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_content_hashes[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT p_ats[t] FROM unnest(v_kept) WITH ORDINALITY AS u(t, o) ORDER BY o),
      ARRAY(SELECT array_position(v_kept, p_posting_transfer[k]) FROM generate_series(1, v_postings) AS k
        WHERE p_posting_transfer[k] = ANY (v_kept) ORDER BY k),
      ARRAY(SELECT p_posting_accounts[k] FROM generate_series(1, v_postings) AS k
        WHERE p_posting_transfer[k] = ANY (v_kept) ORDER BY k),
      ARRAY(SELECT p_posting_amounts[k] FROM generate_series(1, v_postings) AS k
        WHERE p_posting_transfer[k] = ANY (v_kept) ORDER BY k))::jsonb;
  END IF;
  IF v_kept IS NOT NULL THEN
    IF v_outcome->>'status' <> 'ok' THEN
      RAISE EXCEPTION 'a ledger account of a provider request is missing' USING ERRCODE = 'PW004';
    END IF;
    FOR v_k IN 1..array_length(v_kept, 1) LOOP
      v_i := p_money_items[v_kept[v_k]];
      v_kept_items := v_kept_items || v_i;
      IF v_outcome->'groups'->>(v_k - 1) = 'ok' AND NOT (v_outcome->'replays'->>(v_k - 1))::boolean THEN
        v_transfer_ids[v_i] := (v_outcome->'ids'->>(v_k - 1))::bigint;
      ELSE
        v_status[v_i] := 'ledger';
        DELETE FROM provider_transactions WHERE id = v_claims[v_i];
      END IF;
    END LOOP;
  END IF;

  -- The balances after the money, read under the ledger's locks where money moved.
  FOR v_row IN
    SELECT q.i, a.balance_minor
    FROM unnest(p_item_sites, p_item_users, p_item_currencies) WITH ORDINALITY AS q(site_id, user_id, currency, i)
    LEFT JOIN ledger_accounts a ON a.site_id = q.site_id AND a.owner_kind = 'player' AND a.user_id = q.user_id
      AND a.type = 'main' AND a.currency = q.currency AND a.shard = 0
    WHERE v_status[q.i] = 'ok'
  LOOP
    v_balances[v_row.i] := coalesce(v_row.balance_minor, 0)::text;
  END LOOP;
  -- Each answer recorded with its balance: a number while JSON numbers hold it exactly, else a
  -- string (protocol.ts amountJson).
  UPDATE provider_transactions AS t SET transfer_id = v_transfer_ids[q.i],
    answer = p_answers[q.i] || jsonb_build_object('balance', CASE WHEN v_balances[q.i]::bigint <= 9007199254740991
      THEN to_jsonb(v_balances[q.i]::bigint) ELSE to_jsonb(v_balances[q.i]) END)
  FROM generate_series(1, v_n) AS q(i)
  WHERE v_status[q.i] = 'ok' AND t.id = v_claims[q.i];
  -- The stake or payout added to each round found (one item per round: a round is one player's).
  UPDATE provider_rounds AS r SET
    stake_minor = r.stake_minor + CASE WHEN p_item_kinds[q.i] = 'bet' THEN p_item_amounts[q.i] ELSE 0 END,
    payout_minor = r.payout_minor + CASE WHEN p_item_kinds[q.i] = 'win' THEN p_item_amounts[q.i] ELSE 0 END
  FROM generate_series(1, v_n) AS q(i)
  WHERE v_status[q.i] = 'ok' AND r.id = v_round_ids[q.i];
  -- The rounds bets open; another bet of the round may have opened it meanwhile.
  FOR v_row IN
    INSERT INTO provider_rounds (provider, round_id, site_id, user_id, session_id, currency, stake_minor)
    SELECT p_providers[i], p_round_ids[i], p_item_sites[i], p_item_users[i], p_item_sessions[i], p_item_currencies[i],
      p_item_amounts[i]
    FROM generate_series(1, v_n) AS i WHERE v_status[i] = 'ok' AND v_round_ids[i] IS NULL ORDER BY i
    ON CONFLICT (provider, round_id) DO UPDATE SET stake_minor = provider_rounds.stake_minor + EXCLUDED.stake_minor
    RETURNING provider, round_id, user_id, site_id, currency, ended_at
  LOOP
    v_i := array_position(p_round_ids, v_row.round_id);
    WHILE NOT (p_providers[v_i] = v_row.provider AND v_status[v_i] = 'ok' AND v_round_ids[v_i] IS NULL) LOOP
      v_i := array_position(p_round_ids, v_row.round_id, v_i + 1);
    END LOOP;
    IF v_row.user_id <> p_item_users[v_i] OR v_row.site_id <> p_item_sites[v_i] OR v_row.currency <> p_item_currencies[v_i] THEN
      RAISE EXCEPTION 'provider round % was opened by another player meanwhile', v_row.round_id USING ERRCODE = 'PW002';
    ELSIF v_row.ended_at IS NOT NULL THEN
      RAISE EXCEPTION 'provider round % was opened and ended meanwhile', v_row.round_id USING ERRCODE = 'PW003';
    END IF;
  END LOOP;

  RETURN json_build_object('statuses', to_json(v_status), 'codes', to_json(v_code), 'currencies', to_json(v_round_currency),
    'balances', to_json(v_balances), 'kept', to_json(v_kept_items), 'ledger', v_outcome);
END
$$;
--> statement-breakpoint
-- Both functions' statements are planned once per connection: with arrays for parameters the
-- planner prices a generic plan above one made for the call's values, so every statement was
-- planned again on every call. Every lookup in them is by key (no partial index a value decides),
-- so the generic plan is the custom one without the planning.
ALTER FUNCTION ledger_write_batch(bigint[], int[], text[], text[], text[], bigint[], text[], text[], bigint[], text[], text[],
  text[], text[], text[], jsonb[], text[], timestamptz[], int[], bigint[], bigint[]) SET plan_cache_mode = force_generic_plan;

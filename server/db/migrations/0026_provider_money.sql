-- Issue 12: providers' bets and wins, several players' at once, in one statement
-- (provider-wallet/shared-money.ts). A bet or win was six round trips: the session, BEGIN, the
-- round, the ledger call, the transaction's row, COMMIT; and the ledger call's own cost is mostly
-- fixed, so the requests waiting together share one. Each request ("item") stays all or nothing
-- on its own and gets the rows, transfer, keys and audit entry the transactional path
-- (service.ts applyInTransaction) writes:
--   1. in round order: a transaction id taken before is 'seen' (its row decides the answer); a bet
--      on an ended session, or on a round of another player, currency or ended, and a win without
--      its round are 'refused' (code; currency: the round's for CURRENCY_MISMATCH); else the round
--      is locked and the transaction id taken (a twin elsewhere waits on it from here on);
--   2. one ledger_write_batch call with a group per item still going that moves money (at most
--      one transfer each; ledger_write_batch's groups argument, here p_money_items, names each
--      transfer's item, ascending; the other arguments are ledger_write_batch's). A group refused
--      (funds, a key bound to another request) or found applied before is the item's 'ledger'
--      answer, and its transaction id is given back;
--   3. each item going on: its answer with the balance after it recorded on its row, its stake or
--      payout added to its round (a bet may open it).
-- Should another player open the same round meanwhile (PW002), or it be opened and ended
-- meanwhile (PW003), or a ledger account be missing (PW004), the statement raises and writes
-- nothing: every item then plays the transactional path. Locks: rounds in round order, then the
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
LANGUAGE plpgsql AS $$
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
  v_round provider_rounds%ROWTYPE;
  v_i int;
  v_k int;
  v_balance bigint;
  v_claimed bigint;
  v_owner bigint;
  v_owner_site text;
  v_owner_currency text;
  v_owner_ended timestamptz;
BEGIN
  FOR v_i IN SELECT i FROM generate_series(1, v_n) AS i ORDER BY p_providers[i], p_round_ids[i], i LOOP
    IF EXISTS (SELECT 1 FROM provider_transactions WHERE provider = p_providers[v_i] AND tx_id = p_tx_ids[v_i]) THEN
      v_status[v_i] := 'seen';
      CONTINUE;
    END IF;
    IF p_item_kinds[v_i] = 'bet' AND (SELECT expires_at FROM provider_sessions WHERE id = p_item_sessions[v_i]) <= now() THEN
      v_status[v_i] := 'refused';
      v_code[v_i] := 'SESSION_EXPIRED';
      CONTINUE;
    END IF;
    SELECT * INTO v_round FROM provider_rounds WHERE provider = p_providers[v_i] AND round_id = p_round_ids[v_i] FOR UPDATE;
    IF FOUND THEN
      v_round_ids[v_i] := v_round.id;
      IF v_round.user_id <> p_item_users[v_i] OR v_round.site_id <> p_item_sites[v_i] THEN
        v_code[v_i] := 'ROUND_NOT_FOUND';
      ELSIF v_round.currency <> p_item_currencies[v_i] THEN
        v_code[v_i] := 'CURRENCY_MISMATCH';
        v_round_currency[v_i] := v_round.currency;
      ELSIF p_item_kinds[v_i] = 'bet' AND v_round.ended_at IS NOT NULL THEN
        v_code[v_i] := 'ROUND_ENDED';
      END IF;
    ELSIF p_item_kinds[v_i] = 'win' THEN
      v_code[v_i] := 'ROUND_NOT_FOUND';
    END IF;
    IF v_code[v_i] IS NOT NULL THEN
      v_status[v_i] := 'refused';
      CONTINUE;
    END IF;
    INSERT INTO provider_transactions (provider, tx_id, kind, status, site_id, user_id, session_id, round_id, currency,
      amount_minor, request_hash)
    VALUES (p_providers[v_i], p_tx_ids[v_i], p_item_kinds[v_i], 'applied', p_item_sites[v_i], p_item_users[v_i],
      p_item_sessions[v_i], p_round_ids[v_i], p_item_currencies[v_i], p_item_amounts[v_i], p_item_hashes[v_i])
    ON CONFLICT (provider, tx_id) DO NOTHING
    RETURNING id INTO v_claimed;
    IF v_claimed IS NULL THEN
      v_status[v_i] := 'seen';
    END IF;
    v_claims[v_i] := v_claimed;
  END LOOP;

  -- The transfers of the items still going, renumbered 1..K in their order (one per item).
  SELECT array_agg(t ORDER BY t) INTO v_kept
  FROM generate_series(1, v_transfers) AS t WHERE v_status[p_money_items[t]] = 'ok';
  IF v_kept IS NOT NULL THEN
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

  FOR v_i IN 1..v_n LOOP
    CONTINUE WHEN v_status[v_i] <> 'ok';
    -- Read under the ledger's lock on the account when money moved: the balance after this request.
    SELECT balance_minor INTO v_balance FROM ledger_accounts
    WHERE site_id = p_item_sites[v_i] AND owner_kind = 'player' AND user_id = p_item_users[v_i] AND type = 'main'
      AND currency = p_item_currencies[v_i] AND shard = 0;
    v_balance := coalesce(v_balance, 0);
    v_balances[v_i] := v_balance::text;
    -- The protocol's amount: a number while JSON numbers hold it exactly, else a string (protocol.ts amountJson).
    UPDATE provider_transactions SET transfer_id = v_transfer_ids[v_i],
      answer = p_answers[v_i] || jsonb_build_object('balance',
        CASE WHEN v_balance <= 9007199254740991 THEN to_jsonb(v_balance) ELSE to_jsonb(v_balance::text) END)
    WHERE id = v_claims[v_i];
    IF v_round_ids[v_i] IS NOT NULL THEN
      UPDATE provider_rounds SET
        stake_minor = stake_minor + CASE WHEN p_item_kinds[v_i] = 'bet' THEN p_item_amounts[v_i] ELSE 0 END,
        payout_minor = payout_minor + CASE WHEN p_item_kinds[v_i] = 'win' THEN p_item_amounts[v_i] ELSE 0 END
      WHERE id = v_round_ids[v_i];
    ELSE
      INSERT INTO provider_rounds (provider, round_id, site_id, user_id, session_id, currency, stake_minor)
      VALUES (p_providers[v_i], p_round_ids[v_i], p_item_sites[v_i], p_item_users[v_i], p_item_sessions[v_i],
        p_item_currencies[v_i], p_item_amounts[v_i])
      ON CONFLICT (provider, round_id) DO UPDATE SET stake_minor = provider_rounds.stake_minor + EXCLUDED.stake_minor
      RETURNING user_id, site_id, currency, ended_at INTO v_owner, v_owner_site, v_owner_currency, v_owner_ended;
      IF v_owner <> p_item_users[v_i] OR v_owner_site <> p_item_sites[v_i] OR v_owner_currency <> p_item_currencies[v_i] THEN
        RAISE EXCEPTION 'provider round % was opened by another player meanwhile', p_round_ids[v_i] USING ERRCODE = 'PW002';
      ELSIF v_owner_ended IS NOT NULL THEN
        RAISE EXCEPTION 'provider round % was opened and ended meanwhile', p_round_ids[v_i] USING ERRCODE = 'PW003';
      END IF;
    END IF;
  END LOOP;

  RETURN json_build_object('statuses', to_json(v_status), 'codes', to_json(v_code), 'currencies', to_json(v_round_currency),
    'balances', to_json(v_balances), 'kept', to_json(v_kept_items), 'ledger', v_outcome);
END
$$;

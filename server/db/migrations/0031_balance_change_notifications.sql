-- Issue 12: every process keeps its players' balances, and the answers made from them
-- (account.getInfo, a signed-in page's header), until the database says they changed. Before, on
-- PostgreSQL each such answer read a stamp of the player's accounts first: one round trip per call
-- to learn that, nearly always, nothing had moved.
-- Any update of a player's account, by the wallet, a back-office tool or an operator's SQL, tells
-- every listening process on commit which players' balances moved, on the channel the cached rows
-- already use (server/db/cache-notifications.ts); a deletion or truncation tells every process to
-- forget every balance. A statement that changes no balance tells nobody.
-- A NOTIFY holds one lock of the whole database from the commit until its WAL is flushed, so
-- transactions that notify commit one after another (pgbench here: four clients updating two
-- accounts, 3 316 tps without a NOTIFY in the transaction, 1 766 with one). The shared rounds and
-- the provider's money (play_rounds, provider_money: the hottest writers, one statement each in a
-- transaction of its own) therefore run with casino.balance_changes_told_by = 'caller', which this
-- trigger leaves alone: their caller tells every process after the commit, outside any transaction
-- (wallet/balance-changes.ts). A later CREATE OR REPLACE of either function drops that setting: it
-- must say it again (a test checks it is there).
CREATE OR REPLACE FUNCTION notify_balance_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_players text := '*';
BEGIN
  IF current_setting('casino.balance_changes_told_by', true) = 'caller' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    SELECT string_agg(DISTINCT user_id::text, ',') INTO v_players FROM changed_accounts WHERE owner_kind = 'player';
    IF v_players IS NULL THEN
      RETURN NULL;
    END IF;
    -- A payload holds under 8000 bytes: past that, every process forgets every balance.
    IF length(v_players) > 7000 THEN
      v_players := '*';
    END IF;
  END IF;
  PERFORM pg_notify('cache_change', 'ledger_accounts ' || v_players);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER ledger_accounts_balance_change AFTER UPDATE ON ledger_accounts
  REFERENCING NEW TABLE AS changed_accounts FOR EACH STATEMENT EXECUTE FUNCTION notify_balance_change();--> statement-breakpoint
CREATE TRIGGER ledger_accounts_balance_reset AFTER DELETE OR TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_balance_change();--> statement-breakpoint
DO $$
DECLARE
  v_function regprocedure;
BEGIN
  FOR v_function IN SELECT oid::regprocedure FROM pg_proc WHERE proname IN ('play_rounds', 'provider_money') LOOP
    EXECUTE format('ALTER FUNCTION %s SET casino.balance_changes_told_by = %L', v_function, 'caller');
  END LOOP;
END;
$$;

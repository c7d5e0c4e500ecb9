-- Issue 12: every process keeps its players' balances, and the answers made from them
-- (account.getInfo, a signed-in page's header), until the database says they changed. Before, on
-- PostgreSQL each such answer read a stamp of the player's accounts first: one round trip per call
-- to learn that, nearly always, nothing had moved.
-- Any update of a player's account, by the wallet's functions, a back-office tool or an operator's
-- SQL, tells every listening process on commit which players' balances moved, on the channel the
-- cached rows already use (server/db/cache-notifications.ts); a deletion or truncation tells every
-- process to forget every balance. A statement that changes no balance tells nobody.
CREATE OR REPLACE FUNCTION notify_balance_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_players text := '*';
BEGIN
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
  FOR EACH STATEMENT EXECUTE FUNCTION notify_balance_change();

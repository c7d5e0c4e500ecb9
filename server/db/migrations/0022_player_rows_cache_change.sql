-- Issue 12: every process keeps what signed-in requests read about their player (the session's
-- account row, the login contact, the loyalty account, the liked games, the exclusions every bet
-- checks) until those rows change.
-- Any change, by the site, a back-office tool or an operator's SQL, tells every listening process on
-- commit (server/db/player-rows-cache.ts; the function is migration 0016's).
CREATE TRIGGER sessions_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();--> statement-breakpoint
CREATE TRIGGER users_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();--> statement-breakpoint
CREATE TRIGGER contacts_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON contacts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();--> statement-breakpoint
CREATE TRIGGER loyalty_accounts_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loyalty_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();--> statement-breakpoint
CREATE TRIGGER game_likes_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON game_likes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER rg_exclusions_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON rg_exclusions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();

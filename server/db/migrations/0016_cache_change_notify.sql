-- Issue 12: every process caches sites and content until they change. Any change to those rows, by
-- the seed, a back-office tool or an operator's SQL, tells every listening process on commit, so an
-- edit shows at once everywhere (server/db/cache-notifications.ts listens on this channel).
CREATE OR REPLACE FUNCTION notify_cache_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cache_change', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER sites_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sites
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();--> statement-breakpoint
CREATE TRIGGER content_entries_cache_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_entries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();

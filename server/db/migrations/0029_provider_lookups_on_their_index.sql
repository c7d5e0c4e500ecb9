-- Issue 12: provider_money reads by key at any table size. Its plans are generic, made once per
-- connection (migration 0026); on a young provider_transactions table the planner priced the
-- transaction-id lookup (provider, tx_id) and the answers' update as sequential scans joined by
-- hash, and kept them while the table grew, so every call read every transaction (a third of the
-- database's CPU in bench:provider). With sequential scans priced out (as for ledger_write_batch,
-- migration 0028) the lookup took the round index instead, on provider alone, its cost tied with
-- the unique index's on an empty table: still every row of the provider. That is why 0028 found
-- it slower. The round index now leads with the round, so only the unique index answers a lookup
-- by transaction id, and the function never scans a table whole.
DROP INDEX "provider_transactions_round";--> statement-breakpoint
CREATE INDEX "provider_transactions_round" ON "provider_transactions" USING btree ("round_id","provider");--> statement-breakpoint
ALTER FUNCTION provider_money SET enable_seqscan = off;

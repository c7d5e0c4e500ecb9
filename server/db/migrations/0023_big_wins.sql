-- Issue 15: the home page's recent big wins (games.getWinners) list provider rounds too, read from
-- partial indexes of the big wins only, newest first. A provider round keeps its stake (applied
-- bets) and payout (applied wins) itself; the rounds played before are filled in from their
-- transactions here.
ALTER TABLE "provider_rounds" ADD COLUMN "stake_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_rounds" ADD COLUMN "payout_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "provider_rounds" r SET
  "stake_minor" = coalesce((SELECT sum(t."amount_minor") FROM "provider_transactions" t
    WHERE t."provider" = r."provider" AND t."round_id" = r."round_id" AND t."kind" = 'bet' AND t."status" = 'applied'), 0),
  "payout_minor" = coalesce((SELECT sum(t."amount_minor") FROM "provider_transactions" t
    WHERE t."provider" = r."provider" AND t."round_id" = r."round_id" AND t."kind" = 'win' AND t."status" = 'applied'), 0);--> statement-breakpoint
CREATE INDEX "game_rounds_big_wins" ON "game_rounds" USING btree ("site_id","settled_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "game_rounds"."mode" = 'real' AND "game_rounds"."status" = 'settled' AND "game_rounds"."user_id" IS NOT NULL AND "game_rounds"."payout_minor" >= "game_rounds"."stake_minor" * 5;--> statement-breakpoint
CREATE INDEX "provider_rounds_big_wins" ON "provider_rounds" USING btree ("site_id","ended_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "provider_rounds"."ended_at" IS NOT NULL AND "provider_rounds"."stake_minor" > 0 AND "provider_rounds"."payout_minor" >= "provider_rounds"."stake_minor" * 5;
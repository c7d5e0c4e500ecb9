CREATE TABLE "player_debts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"cleared_minor" bigint DEFAULT 0 NOT NULL,
	"written_off_minor" bigint DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"reference" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "player_debts_amounts" CHECK ("player_debts"."amount_minor" > 0 AND "player_debts"."cleared_minor" >= 0 AND "player_debts"."written_off_minor" >= 0 AND "player_debts"."cleared_minor" + "player_debts"."written_off_minor" <= "player_debts"."amount_minor"),
	CONSTRAINT "player_debts_status" CHECK ("player_debts"."status" IN ('open', 'cleared', 'written_off'))
);
--> statement-breakpoint
CREATE TABLE "sport_bet_limits" (
	"site_id" text NOT NULL,
	"scope" text NOT NULL,
	"target" text NOT NULL,
	"currency" text NOT NULL,
	"min_stake_minor" bigint,
	"max_stake_minor" bigint,
	"max_payout_minor" bigint,
	"max_exposure_minor" bigint,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sport_bet_limits_site_id_scope_target_currency_pk" PRIMARY KEY("site_id","scope","target","currency"),
	CONSTRAINT "sport_bet_limits_scope" CHECK ("sport_bet_limits"."scope" IN ('player', 'market', 'league')),
	CONSTRAINT "sport_bet_limits_amounts" CHECK (coalesce("sport_bet_limits"."min_stake_minor", 1) > 0 AND coalesce("sport_bet_limits"."max_stake_minor", 1) > 0 AND coalesce("sport_bet_limits"."max_payout_minor", 1) > 0 AND coalesce("sport_bet_limits"."max_exposure_minor", 1) > 0)
);
--> statement-breakpoint
CREATE TABLE "sport_market_exposure" (
	"site_id" text NOT NULL,
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"currency" text NOT NULL,
	"exposure_minor" bigint NOT NULL,
	CONSTRAINT "sport_market_exposure_site_id_event_id_market_key_currency_pk" PRIMARY KEY("site_id","event_id","market_key","currency")
);
--> statement-breakpoint
ALTER TABLE "sport_tickets" ADD COLUMN "settlements" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "player_debts_reference" ON "player_debts" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "player_debts_owner" ON "player_debts" USING btree ("site_id","user_id","status","id");
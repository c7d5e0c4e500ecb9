CREATE TABLE "live_bets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"round_id" bigint NOT NULL,
	"site_id" text NOT NULL,
	"owner_key" text NOT NULL,
	"user_id" bigint,
	"visitor_id" text,
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"stake_minor" bigint NOT NULL,
	"bet" jsonb NOT NULL,
	"auto_cash_out" integer,
	"cash_out" integer,
	"payout_minor" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"request_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "live_bets_amounts" CHECK ("live_bets"."stake_minor" > 0 AND "live_bets"."payout_minor" >= 0),
	CONSTRAINT "live_bets_mode" CHECK ("live_bets"."mode" IN ('real', 'demo')),
	CONSTRAINT "live_bets_status" CHECK ("live_bets"."status" IN ('open', 'won', 'lost')),
	CONSTRAINT "live_bets_owner_check" CHECK (("live_bets"."user_id" IS NOT NULL) OR ("live_bets"."mode" = 'demo' AND "live_bets"."visitor_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "live_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_rounds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"sysname" text NOT NULL,
	"engine" text NOT NULL,
	"round_no" integer NOT NULL,
	"server_seed" text NOT NULL,
	"server_seed_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"betting_opens_at" timestamp (3) with time zone NOT NULL,
	"betting_closes_at" timestamp (3) with time zone NOT NULL,
	"result_at" timestamp (3) with time zone NOT NULL,
	"next_at" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"result" jsonb,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_rounds_status" CHECK ("live_rounds"."status" IN ('open', 'settled')),
	CONSTRAINT "live_rounds_times" CHECK ("live_rounds"."betting_opens_at" <= "live_rounds"."betting_closes_at" AND "live_rounds"."betting_closes_at" <= "live_rounds"."result_at" AND "live_rounds"."result_at" <= "live_rounds"."next_at")
);
--> statement-breakpoint
ALTER TABLE "live_bets" ADD CONSTRAINT "live_bets_round_id_live_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."live_rounds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_bets" ADD CONSTRAINT "live_bets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "live_bets_request" ON "live_bets" USING btree ("site_id","owner_key","request_key");--> statement-breakpoint
CREATE INDEX "live_bets_round" ON "live_bets" USING btree ("round_id","status");--> statement-breakpoint
CREATE INDEX "live_bets_owner" ON "live_bets" USING btree ("site_id","owner_key","id");--> statement-breakpoint
CREATE UNIQUE INDEX "live_rounds_table_no" ON "live_rounds" USING btree ("site_id","sysname","round_no");--> statement-breakpoint
CREATE INDEX "live_rounds_open" ON "live_rounds" USING btree ("status","result_at");
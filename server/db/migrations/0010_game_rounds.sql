CREATE TABLE "fair_seeds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"owner_key" text NOT NULL,
	"user_id" bigint,
	"server_seed" text NOT NULL,
	"server_seed_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"next_nonce" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revealed_at" timestamp with time zone,
	CONSTRAINT "fair_seeds_nonce" CHECK ("fair_seeds"."next_nonce" >= 0)
);
--> statement-breakpoint
CREATE TABLE "game_rounds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"owner_key" text NOT NULL,
	"user_id" bigint,
	"visitor_id" text,
	"sysname" text NOT NULL,
	"engine" text NOT NULL,
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"stake_minor" bigint NOT NULL,
	"payout_minor" bigint DEFAULT 0 NOT NULL,
	"seed_id" bigint NOT NULL,
	"server_seed_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"nonce" integer NOT NULL,
	"bet" jsonb NOT NULL,
	"outcome" jsonb,
	"state" jsonb,
	"status" text NOT NULL,
	"request_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "game_rounds_amounts" CHECK ("game_rounds"."stake_minor" > 0 AND "game_rounds"."payout_minor" >= 0),
	CONSTRAINT "game_rounds_mode" CHECK ("game_rounds"."mode" IN ('real', 'demo')),
	CONSTRAINT "game_rounds_status" CHECK ("game_rounds"."status" IN ('open', 'settled')),
	CONSTRAINT "game_rounds_owner" CHECK (("game_rounds"."user_id" IS NOT NULL) OR ("game_rounds"."mode" = 'demo' AND "game_rounds"."visitor_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "fair_seeds" ADD CONSTRAINT "fair_seeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_seed_id_fair_seeds_id_fk" FOREIGN KEY ("seed_id") REFERENCES "public"."fair_seeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fair_seeds_one_active" ON "fair_seeds" USING btree ("site_id","owner_key") WHERE "fair_seeds"."revealed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "fair_seeds_owner" ON "fair_seeds" USING btree ("site_id","owner_key","id");--> statement-breakpoint
CREATE UNIQUE INDEX "game_rounds_request" ON "game_rounds" USING btree ("site_id","owner_key","request_key");--> statement-breakpoint
CREATE INDEX "game_rounds_recall" ON "game_rounds" USING btree ("site_id","owner_key","sysname","id");--> statement-breakpoint
CREATE INDEX "game_rounds_seed" ON "game_rounds" USING btree ("seed_id");
CREATE TABLE "game_history_exports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"sysname" text,
	"date_from" timestamp with time zone,
	"date_to" timestamp with time zone,
	"csv" text,
	"row_count" integer,
	"is_truncated" boolean DEFAULT false NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "game_history_exports_status" CHECK ("game_history_exports"."status" IN ('pending', 'ready', 'failed')),
	CONSTRAINT "game_history_exports_file" CHECK ("game_history_exports"."status" <> 'ready' OR "game_history_exports"."csv" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "freespin_packs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"sysname" text NOT NULL,
	"currency" text NOT NULL,
	"stake_minor" bigint NOT NULL,
	"total_count" integer NOT NULL,
	"remaining_count" integer NOT NULL,
	"wagering_multiplier" integer DEFAULT 0 NOT NULL,
	"win_minor" bigint DEFAULT 0 NOT NULL,
	"wager_required_minor" bigint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"award_key" text NOT NULL,
	"awarded_by" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "freespin_packs_counts" CHECK ("freespin_packs"."total_count" > 0 AND "freespin_packs"."remaining_count" >= 0 AND "freespin_packs"."remaining_count" <= "freespin_packs"."total_count"),
	CONSTRAINT "freespin_packs_amounts" CHECK ("freespin_packs"."stake_minor" > 0 AND "freespin_packs"."win_minor" >= 0 AND "freespin_packs"."wager_required_minor" >= 0 AND "freespin_packs"."wagering_multiplier" >= 0)
);
--> statement-breakpoint
CREATE TABLE "freespin_spins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pack_id" bigint NOT NULL,
	"round_id" bigint NOT NULL,
	"spin_number" integer NOT NULL,
	"payout_minor" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "freespin_spins_number_positive" CHECK ("freespin_spins"."spin_number" > 0)
);
--> statement-breakpoint
ALTER TABLE "game_history_exports" ADD CONSTRAINT "game_history_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freespin_packs" ADD CONSTRAINT "freespin_packs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freespin_spins" ADD CONSTRAINT "freespin_spins_pack_id_freespin_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."freespin_packs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freespin_spins" ADD CONSTRAINT "freespin_spins_round_id_game_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."game_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_history_exports_owner" ON "game_history_exports" USING btree ("site_id","user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "freespin_packs_award_key" ON "freespin_packs" USING btree ("site_id","award_key");--> statement-breakpoint
CREATE INDEX "freespin_packs_owner" ON "freespin_packs" USING btree ("site_id","user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "freespin_spins_round" ON "freespin_spins" USING btree ("round_id");--> statement-breakpoint
CREATE UNIQUE INDEX "freespin_spins_number" ON "freespin_spins" USING btree ("pack_id","spin_number");
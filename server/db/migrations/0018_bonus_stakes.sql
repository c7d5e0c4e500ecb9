CREATE TABLE "bonus_stakes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"stake_ref" text NOT NULL,
	"bonus_id" bigint NOT NULL,
	"game_type" text,
	"stake_minor" bigint NOT NULL,
	"from_bonus_minor" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bonus_stakes_amounts" CHECK ("bonus_stakes"."stake_minor" > 0 AND "bonus_stakes"."from_bonus_minor" >= 0 AND "bonus_stakes"."from_bonus_minor" <= "bonus_stakes"."stake_minor")
);
--> statement-breakpoint
ALTER TABLE "bonus_stakes" ADD CONSTRAINT "bonus_stakes_bonus_id_bonuses_id_fk" FOREIGN KEY ("bonus_id") REFERENCES "public"."bonuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bonus_stakes_ref" ON "bonus_stakes" USING btree ("site_id","stake_ref");--> statement-breakpoint
CREATE INDEX "bonus_stakes_bonus" ON "bonus_stakes" USING btree ("bonus_id");
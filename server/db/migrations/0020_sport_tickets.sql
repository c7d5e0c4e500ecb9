CREATE TABLE "sport_ticket_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sport_ticket_legs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"outcome_id" text NOT NULL,
	"odds_units" bigint NOT NULL,
	"result" jsonb,
	CONSTRAINT "sport_ticket_legs_odds" CHECK ("sport_ticket_legs"."odds_units" >= 10100)
);
--> statement-breakpoint
CREATE TABLE "sport_tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"bet_type" jsonb NOT NULL,
	"stake_per_line_minor" bigint NOT NULL,
	"total_stake_minor" bigint NOT NULL,
	"potential_return_minor" bigint NOT NULL,
	"bonus_id" bigint,
	"status" text NOT NULL,
	"payout_minor" bigint DEFAULT 0 NOT NULL,
	"cashed_out_minor" bigint DEFAULT 0 NOT NULL,
	"cash_outs" integer DEFAULT 0 NOT NULL,
	"channel" text NOT NULL,
	"request_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"placed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "sport_tickets_amounts" CHECK ("sport_tickets"."stake_per_line_minor" > 0 AND "sport_tickets"."total_stake_minor" >= "sport_tickets"."stake_per_line_minor" AND "sport_tickets"."payout_minor" >= 0),
	CONSTRAINT "sport_tickets_status" CHECK ("sport_tickets"."status" IN ('open', 'won', 'lost', 'void', 'partial', 'cashed_out'))
);
--> statement-breakpoint
ALTER TABLE "sport_ticket_changes" ADD CONSTRAINT "sport_ticket_changes_ticket_id_sport_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."sport_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sport_ticket_legs" ADD CONSTRAINT "sport_ticket_legs_ticket_id_sport_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."sport_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sport_tickets" ADD CONSTRAINT "sport_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sport_ticket_changes_ticket" ON "sport_ticket_changes" USING btree ("ticket_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sport_ticket_legs_position" ON "sport_ticket_legs" USING btree ("ticket_id","position");--> statement-breakpoint
CREATE INDEX "sport_ticket_legs_market" ON "sport_ticket_legs" USING btree ("event_id","market_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sport_tickets_request" ON "sport_tickets" USING btree ("site_id","user_id","request_key");--> statement-breakpoint
CREATE INDEX "sport_tickets_owner" ON "sport_tickets" USING btree ("site_id","user_id","id");--> statement-breakpoint
CREATE INDEX "sport_tickets_open" ON "sport_tickets" USING btree ("status");
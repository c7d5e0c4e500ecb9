CREATE TABLE "sportsbook_categories" (
	"id" text PRIMARY KEY NOT NULL,
	"sport" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sportsbook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"sport" text,
	"tournament_id" text,
	"home_id" text,
	"home_name" text,
	"away_id" text,
	"away_name" text,
	"start_time" timestamp with time zone,
	"status" text DEFAULT 'not_started' NOT NULL,
	"home_score" integer,
	"away_score" integer,
	"clock_minute" integer,
	"producer" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sportsbook_feed_cursors" (
	"producer" text NOT NULL,
	"event_id" text NOT NULL,
	"next_sequence" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "sportsbook_feed_cursors_producer_event_id_pk" PRIMARY KEY("producer","event_id")
);
--> statement-breakpoint
CREATE TABLE "sportsbook_feed_messages" (
	"producer" text NOT NULL,
	"event_id" text NOT NULL,
	"sequence" integer NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"applied" boolean NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sportsbook_feed_messages_producer_event_id_sequence_pk" PRIMARY KEY("producer","event_id","sequence")
);
--> statement-breakpoint
CREATE TABLE "sportsbook_markets" (
	"event_id" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"specifiers" jsonb NOT NULL,
	"status" text NOT NULL,
	"settlement_certainty" text,
	"cancel_window" jsonb,
	"status_before" text,
	"status_before_outage" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sportsbook_markets_event_id_key_pk" PRIMARY KEY("event_id","key")
);
--> statement-breakpoint
CREATE TABLE "sportsbook_outcomes" (
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"outcome_id" text NOT NULL,
	"odds" bigint,
	"active" boolean NOT NULL,
	"won" boolean,
	"void_factor" text,
	"dead_heat_factor" text,
	CONSTRAINT "sportsbook_outcomes_event_id_market_key_outcome_id_pk" PRIMARY KEY("event_id","market_key","outcome_id")
);
--> statement-breakpoint
CREATE TABLE "sportsbook_tournaments" (
	"id" text PRIMARY KEY NOT NULL,
	"category_id" text NOT NULL,
	"sport" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sportsbook_events" ADD CONSTRAINT "sportsbook_events_tournament_id_sportsbook_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."sportsbook_tournaments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sportsbook_markets" ADD CONSTRAINT "sportsbook_markets_event_id_sportsbook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."sportsbook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sportsbook_tournaments" ADD CONSTRAINT "sportsbook_tournaments_category_id_sportsbook_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."sportsbook_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sportsbook_events_offer" ON "sportsbook_events" USING btree ("sport","status","start_time");--> statement-breakpoint
CREATE INDEX "sportsbook_events_producer" ON "sportsbook_events" USING btree ("producer");
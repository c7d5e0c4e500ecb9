CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"direction" text NOT NULL,
	"method" text NOT NULL,
	"method_type" text NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"flow" text,
	"requisites" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"campaign_offer_id" integer DEFAULT -1 NOT NULL,
	"reason" text,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"status" text NOT NULL,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payments_user_direction" ON "payments" USING btree ("user_id","direction","created_at");--> statement-breakpoint
CREATE INDEX "payments_status" ON "payments" USING btree ("status","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_events_identity" ON "provider_events" USING btree ("provider","event_id");
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 10 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"failed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "psp_sandbox_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"copy" integer DEFAULT 1 NOT NULL,
	"attempt" integer NOT NULL,
	"url" text NOT NULL,
	"response_status" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "psp_sandbox_events" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"status" text NOT NULL,
	"body" text NOT NULL,
	"is_held" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "psp_sandbox_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"notification_url" text NOT NULL,
	"return_urls" jsonb,
	"requisites" jsonb,
	"failure_reason" text,
	"card_last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "psp_sandbox_deliveries" ADD CONSTRAINT "psp_sandbox_deliveries_event_id_psp_sandbox_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."psp_sandbox_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_sandbox_events" ADD CONSTRAINT "psp_sandbox_events_payment_id_psp_sandbox_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."psp_sandbox_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_key" ON "jobs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "jobs_due" ON "jobs" USING btree ("run_at","id") WHERE "jobs"."done_at" IS NULL AND "jobs"."failed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "psp_sandbox_deliveries_event" ON "psp_sandbox_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "psp_sandbox_events_payment" ON "psp_sandbox_events" USING btree ("payment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "psp_sandbox_payments_reference" ON "psp_sandbox_payments" USING btree ("site_id","kind","reference");
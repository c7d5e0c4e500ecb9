CREATE TABLE "kyc_applicants" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"site_id" text NOT NULL,
	"status" text DEFAULT 'init' NOT NULL,
	"reject_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"applicant_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kyc_applicants" ADD CONSTRAINT "kyc_applicants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_applicants_user" ON "kyc_applicants" USING btree ("user_id");
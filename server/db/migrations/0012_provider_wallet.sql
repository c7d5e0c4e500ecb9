CREATE TABLE "provider_rounds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"round_id" text NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"session_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "provider_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"provider" text NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"sysname" text NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"tx_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"session_id" bigint,
	"round_id" text NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"ref_tx_id" text,
	"transfer_id" bigint,
	"request_hash" text NOT NULL,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_transactions_amount" CHECK ("provider_transactions"."amount_minor" >= 0),
	CONSTRAINT "provider_transactions_kind" CHECK ("provider_transactions"."kind" IN ('bet', 'win', 'rollback')),
	CONSTRAINT "provider_transactions_status" CHECK ("provider_transactions"."status" IN ('applied', 'rolled_back', 'tombstone'))
);
--> statement-breakpoint
ALTER TABLE "provider_rounds" ADD CONSTRAINT "provider_rounds_session_id_provider_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."provider_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_sessions" ADD CONSTRAINT "provider_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_rounds_round" ON "provider_rounds" USING btree ("provider","round_id");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_sessions_token" ON "provider_sessions" USING btree ("token");--> statement-breakpoint
CREATE INDEX "provider_sessions_user" ON "provider_sessions" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_transactions_tx" ON "provider_transactions" USING btree ("provider","tx_id");--> statement-breakpoint
CREATE INDEX "provider_transactions_round" ON "provider_transactions" USING btree ("provider","round_id");
CREATE TABLE "loyalty_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"character_id" integer,
	"points" bigint DEFAULT 0 NOT NULL,
	"experience" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_accounts_counts" CHECK ("loyalty_accounts"."points" >= 0 AND "loyalty_accounts"."experience" >= 0)
);
--> statement-breakpoint
CREATE TABLE "loyalty_accrual_cursor" (
	"name" text PRIMARY KEY NOT NULL,
	"last_transfer_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loyalty_point_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"points_delta" bigint NOT NULL,
	"experience_delta" bigint NOT NULL,
	"reason" text NOT NULL,
	"entry_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loyalty_wager_totals" (
	"account_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"wagered_minor" bigint DEFAULT 0 NOT NULL,
	"points_earned" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "loyalty_wager_totals_account_id_currency_pk" PRIMARY KEY("account_id","currency")
);
--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD CONSTRAINT "loyalty_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_point_entries" ADD CONSTRAINT "loyalty_point_entries_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_wager_totals" ADD CONSTRAINT "loyalty_wager_totals_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loyalty_accounts_user" ON "loyalty_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loyalty_point_entries_key" ON "loyalty_point_entries" USING btree ("account_id","entry_key");--> statement-breakpoint
CREATE INDEX "loyalty_point_entries_account" ON "loyalty_point_entries" USING btree ("account_id","id");
CREATE TABLE "bonuses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"template_id" text NOT NULL,
	"terms" jsonb NOT NULL,
	"source" text NOT NULL,
	"source_ref" text NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"deposit_minor" bigint DEFAULT 0 NOT NULL,
	"balance_minor" bigint DEFAULT 0 NOT NULL,
	"wagering_required_minor" bigint NOT NULL,
	"wagered_minor" bigint DEFAULT 0 NOT NULL,
	"converted_minor" bigint DEFAULT 0 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"claim_expires_at" timestamp with time zone NOT NULL,
	"wagering_expires_at" timestamp with time zone,
	"activated_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bonuses_amounts" CHECK ("bonuses"."amount_minor" > 0 AND "bonuses"."deposit_minor" >= 0 AND "bonuses"."balance_minor" >= 0 AND "bonuses"."wagering_required_minor" >= 0 AND "bonuses"."wagered_minor" >= 0 AND "bonuses"."converted_minor" >= 0),
	CONSTRAINT "bonuses_status" CHECK ("bonuses"."status" IN ('available', 'active', 'converted', 'expired', 'forfeited', 'removed')),
	CONSTRAINT "bonuses_type" CHECK ("bonuses"."type" IN ('casino', 'betting')),
	CONSTRAINT "bonuses_balance_only_when_active" CHECK ("bonuses"."status" = 'active' OR "bonuses"."balance_minor" = 0)
);
--> statement-breakpoint
CREATE TABLE "cashbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"period" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"net_loss_minor" bigint NOT NULL,
	"percent_hundredths" integer NOT NULL,
	"amount_minor" bigint NOT NULL,
	"payout" jsonb NOT NULL,
	"receiving_expires_at" timestamp with time zone NOT NULL,
	"paid_out_at" timestamp with time zone,
	"paid_with" text,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cashbacks_amounts" CHECK ("cashbacks"."amount_minor" > 0 AND "cashbacks"."net_loss_minor" > 0 AND "cashbacks"."percent_hundredths" > 0),
	CONSTRAINT "cashbacks_status" CHECK ("cashbacks"."status" IN ('active', 'paid_out', 'expired', 'removed')),
	CONSTRAINT "cashbacks_period" CHECK ("cashbacks"."period" IN ('daily', 'weekly') AND "cashbacks"."period_end" > "cashbacks"."period_start"),
	CONSTRAINT "cashbacks_paid_when_paid_out" CHECK (("cashbacks"."status" = 'paid_out') = ("cashbacks"."paid_out_at" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cashbacks" ADD CONSTRAINT "cashbacks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bonuses_grant_key" ON "bonuses" USING btree ("site_id","user_id","source","source_ref");--> statement-breakpoint
CREATE INDEX "bonuses_owner" ON "bonuses" USING btree ("site_id","user_id","status","id");--> statement-breakpoint
CREATE INDEX "bonuses_claim_expiry" ON "bonuses" USING btree ("status","claim_expires_at");--> statement-breakpoint
CREATE INDEX "bonuses_wagering_expiry" ON "bonuses" USING btree ("status","wagering_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cashbacks_period_key" ON "cashbacks" USING btree ("site_id","user_id","currency","period_start");--> statement-breakpoint
CREATE INDEX "cashbacks_owner" ON "cashbacks" USING btree ("site_id","user_id","status","period_end");--> statement-breakpoint
CREATE INDEX "cashbacks_open_by_expiry" ON "cashbacks" USING btree ("status","receiving_expires_at");
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
ALTER TABLE "cashbacks" ADD CONSTRAINT "cashbacks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cashbacks_period_key" ON "cashbacks" USING btree ("site_id","user_id","currency","period_start");--> statement-breakpoint
CREATE INDEX "cashbacks_owner" ON "cashbacks" USING btree ("site_id","user_id","status","period_end");--> statement-breakpoint
CREATE INDEX "cashbacks_open_by_expiry" ON "cashbacks" USING btree ("status","receiving_expires_at");
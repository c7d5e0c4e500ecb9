CREATE TABLE "sites" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"hosts" text[] NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"default_currency" text NOT NULL,
	"currencies" text[] NOT NULL,
	"locales" text[] NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_maintenance" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"collection" text NOT NULL,
	"locale" text NOT NULL,
	"slug" text NOT NULL,
	"data" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now(),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_entries" (
	"owner" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storage_entries_owner_key_pk" PRIMARY KEY("owner","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"visitor_id" text NOT NULL,
	"uid" bigint DEFAULT 0 NOT NULL,
	"event_name" text NOT NULL,
	"event_params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"visitor_id" text NOT NULL,
	"uid" bigint DEFAULT 0 NOT NULL,
	"referrer" text,
	"track_id" text,
	"track_name" text,
	"track_value" text,
	"seon_session" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_entries" ADD CONSTRAINT "content_entries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_entries_key" ON "content_entries" USING btree ("site_id","collection","locale","slug");--> statement-breakpoint
CREATE INDEX "content_entries_collection" ON "content_entries" USING btree ("site_id","collection","locale");--> statement-breakpoint
CREATE INDEX "analytics_events_site_name" ON "analytics_events" USING btree ("site_id","event_name","created_at");--> statement-breakpoint
CREATE INDEX "hits_site_created" ON "hits" USING btree ("site_id","created_at");
CREATE TABLE "game_likes" (
	"user_id" bigint NOT NULL,
	"site_id" text NOT NULL,
	"sysname" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "game_likes" ADD CONSTRAINT "game_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_likes" ADD CONSTRAINT "game_likes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "game_likes_user_sysname" ON "game_likes" USING btree ("user_id","sysname");--> statement-breakpoint
CREATE INDEX "game_likes_site_sysname" ON "game_likes" USING btree ("site_id","sysname");
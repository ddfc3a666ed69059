-- Modify "git_sync_operations" table
ALTER TABLE "git_sync_operations" ADD COLUMN "automatic" boolean NOT NULL DEFAULT false;
-- Modify "git_syncs" table
ALTER TABLE "git_syncs" ADD COLUMN "connected_by_id" character varying NULL, ADD COLUMN "credentials" character varying NULL, ADD COLUMN "push_secret" character varying NULL, ADD COLUMN "next_poll_at" timestamptz NULL, ADD COLUMN "change_request_id" character varying NULL;
-- Create index "gitsync_next_poll_at" to table: "git_syncs"
CREATE INDEX "gitsync_next_poll_at" ON "git_syncs" ("next_poll_at");
-- Modify "spaces" table
ALTER TABLE "spaces" ADD COLUMN "git_connected" boolean NOT NULL DEFAULT false;

-- Modify "git_sync_operations" table
ALTER TABLE "git_sync_operations" ADD COLUMN "standalone" boolean NOT NULL DEFAULT false;

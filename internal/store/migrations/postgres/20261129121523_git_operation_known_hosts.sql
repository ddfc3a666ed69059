-- Modify "git_sync_operations" table
ALTER TABLE "git_sync_operations" ADD COLUMN "ssh_known_hosts" text NULL;

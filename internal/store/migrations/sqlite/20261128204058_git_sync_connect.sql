-- Add column "automatic" to table: "git_sync_operations"
ALTER TABLE `git_sync_operations` ADD COLUMN `automatic` bool NOT NULL DEFAULT (false);
-- Add the connection's columns to table: "git_syncs"
ALTER TABLE `git_syncs` ADD COLUMN `connected_by_id` text NULL;
ALTER TABLE `git_syncs` ADD COLUMN `credentials` text NULL;
ALTER TABLE `git_syncs` ADD COLUMN `push_secret` text NULL;
ALTER TABLE `git_syncs` ADD COLUMN `next_poll_at` datetime NULL;
ALTER TABLE `git_syncs` ADD COLUMN `change_request_id` text NULL;
-- Create index "gitsync_next_poll_at" to table: "git_syncs"
CREATE INDEX `gitsync_next_poll_at` ON `git_syncs` (`next_poll_at`);
-- Add column "git_connected" to table: "spaces"
ALTER TABLE `spaces` ADD COLUMN `git_connected` bool NOT NULL DEFAULT (false);

-- Add column "ssh_known_hosts" to table: "git_sync_operations"
ALTER TABLE `git_sync_operations` ADD COLUMN `ssh_known_hosts` text NULL;

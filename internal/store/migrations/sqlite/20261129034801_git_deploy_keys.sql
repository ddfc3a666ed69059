-- Add column "ssh_known_hosts" to table: "git_syncs"
ALTER TABLE `git_syncs` ADD COLUMN `ssh_known_hosts` text NULL;
-- Create "git_deploy_keys" table
CREATE TABLE `git_deploy_keys` (`id` text NOT NULL, `public_key` text NOT NULL, `private_key` text NOT NULL, `created_at` datetime NOT NULL, `created_by_id` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `git_deploy_keys_users_created_by` FOREIGN KEY (`created_by_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `git_deploy_keys_spaces_git_deploy_key` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "git_deploy_keys_space_id_key" to table: "git_deploy_keys"
CREATE UNIQUE INDEX `git_deploy_keys_space_id_key` ON `git_deploy_keys` (`space_id`);

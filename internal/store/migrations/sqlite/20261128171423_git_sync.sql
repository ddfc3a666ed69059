-- Create "git_syncs" table
CREATE TABLE `git_syncs` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `url` text NOT NULL, `ref` text NOT NULL, `project_directory` text NOT NULL DEFAULT (''), `tree_url` text NULL, `provider` text NULL, `synced_revision_id` text NULL, `synced_commit` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `git_syncs_spaces_git_sync` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "git_syncs_space_id_key" to table: "git_syncs"
CREATE UNIQUE INDEX `git_syncs_space_id_key` ON `git_syncs` (`space_id`);
-- Create "git_sync_operations" table
CREATE TABLE `git_sync_operations` (`id` text NOT NULL, `created_by_id` text NULL, `direction` text NOT NULL, `state` text NOT NULL DEFAULT ('running'), `stage` text NOT NULL DEFAULT ('repo_fetch'), `dispatched_tasks` integer NOT NULL DEFAULT (0), `completed_tasks` integer NOT NULL DEFAULT (0), `started_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `completed_at` datetime NULL, `error` text NULL, `url` text NOT NULL, `ref` text NOT NULL, `project_directory` text NOT NULL DEFAULT (''), `commit_message` text NULL, `force` bool NOT NULL DEFAULT (false), `credentials` text NULL, `commit` text NULL, `revision_id` text NULL, `attempts` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NULL, `claimed_by` text NULL, `claimed_until` datetime NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `git_sync_operations_spaces_git_sync_operations` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "gitsyncoperation_space_id_started_at" to table: "git_sync_operations"
CREATE INDEX `gitsyncoperation_space_id_started_at` ON `git_sync_operations` (`space_id`, `started_at`);
-- Create index "gitsyncoperation_state_next_attempt_at" to table: "git_sync_operations"
CREATE INDEX `gitsyncoperation_state_next_attempt_at` ON `git_sync_operations` (`state`, `next_attempt_at`);

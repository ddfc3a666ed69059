-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_git_sync_operations" table
CREATE TABLE `new_git_sync_operations` (`id` text NOT NULL, `created_by_id` text NULL, `direction` text NOT NULL, `state` text NOT NULL DEFAULT ('running'), `stage` text NOT NULL DEFAULT ('repo_fetch'), `dispatched_tasks` integer NOT NULL DEFAULT (0), `completed_tasks` integer NOT NULL DEFAULT (0), `started_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `completed_at` datetime NULL, `error` text NULL, `url` text NOT NULL, `ref` text NOT NULL, `project_directory` text NOT NULL DEFAULT (''), `commit_message` text NULL, `force` bool NOT NULL DEFAULT (false), `standalone` bool NOT NULL DEFAULT (false), `credentials` text NULL, `ssh_known_hosts` text NULL, `commit` text NULL, `revision_id` text NULL, `attempts` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NULL, `claimed_by` text NULL, `claimed_until` datetime NULL, `automatic` bool NOT NULL DEFAULT (false), `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `git_sync_operations_spaces_git_sync_operations` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "git_sync_operations" to new temporary table "new_git_sync_operations"
INSERT INTO `new_git_sync_operations` (`id`, `created_by_id`, `direction`, `state`, `stage`, `dispatched_tasks`, `completed_tasks`, `started_at`, `updated_at`, `completed_at`, `error`, `url`, `ref`, `project_directory`, `commit_message`, `force`, `credentials`, `ssh_known_hosts`, `commit`, `revision_id`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `automatic`, `space_id`) SELECT `id`, `created_by_id`, `direction`, `state`, `stage`, `dispatched_tasks`, `completed_tasks`, `started_at`, `updated_at`, `completed_at`, `error`, `url`, `ref`, `project_directory`, `commit_message`, `force`, `credentials`, `ssh_known_hosts`, `commit`, `revision_id`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `automatic`, `space_id` FROM `git_sync_operations`;
-- Drop "git_sync_operations" table after copying rows
DROP TABLE `git_sync_operations`;
-- Rename temporary table "new_git_sync_operations" to "git_sync_operations"
ALTER TABLE `new_git_sync_operations` RENAME TO `git_sync_operations`;
-- Create index "gitsyncoperation_space_id_started_at" to table: "git_sync_operations"
CREATE INDEX `gitsyncoperation_space_id_started_at` ON `git_sync_operations` (`space_id`, `started_at`);
-- Create index "gitsyncoperation_state_next_attempt_at" to table: "git_sync_operations"
CREATE INDEX `gitsyncoperation_state_next_attempt_at` ON `git_sync_operations` (`state`, `next_attempt_at`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_spaces" table
CREATE TABLE `new_spaces` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL DEFAULT (''), `emoji` text NOT NULL DEFAULT (''), `icon_url` text NULL, `visibility` text NOT NULL DEFAULT ('private'), `edit_mode` text NULL, `default_level` text NULL DEFAULT ('inherit'), `language` text NULL, `position` real NOT NULL DEFAULT (0), `cr_seq` integer NOT NULL DEFAULT (0), `cr_count` integer NOT NULL DEFAULT (0), `cr_open_count` integer NOT NULL DEFAULT (0), `cr_draft_count` integer NOT NULL DEFAULT (0), `comment_open_count` integer NOT NULL DEFAULT (0), `deleted_at` datetime NULL, `visitor_auth_private_key` text NULL, `parent_id` text NULL, `organization_id` text NOT NULL, `revision_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `spaces_collections_spaces` FOREIGN KEY (`parent_id`) REFERENCES `collections` (`id`) ON DELETE SET NULL, CONSTRAINT `spaces_organizations_spaces` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `spaces_revisions_revision` FOREIGN KEY (`revision_id`) REFERENCES `revisions` (`id`) ON DELETE SET NULL);
-- Copy rows from old table "spaces" to new temporary table "new_spaces"
INSERT INTO `new_spaces` (`id`, `created_at`, `updated_at`, `title`, `emoji`, `icon_url`, `visibility`, `edit_mode`, `default_level`, `language`, `position`, `cr_seq`, `deleted_at`, `visitor_auth_private_key`, `parent_id`, `organization_id`, `revision_id`) SELECT `id`, `created_at`, `updated_at`, `title`, `emoji`, `icon_url`, `visibility`, `edit_mode`, `default_level`, `language`, `position`, `cr_seq`, `deleted_at`, `visitor_auth_private_key`, `parent_id`, `organization_id`, `revision_id` FROM `spaces`;
-- Drop "spaces" table after copying rows
DROP TABLE `spaces`;
-- Rename temporary table "new_spaces" to "spaces"
ALTER TABLE `new_spaces` RENAME TO `spaces`;
-- Create index "space_organization_id_created_at" to table: "spaces"
CREATE INDEX `space_organization_id_created_at` ON `spaces` (`organization_id`, `created_at`);
-- Create index "space_parent_id_position" to table: "spaces"
CREATE INDEX `space_parent_id_position` ON `spaces` (`parent_id`, `position`);
-- Create index "space_organization_id_position" to table: "spaces"
CREATE INDEX `space_organization_id_position` ON `spaces` (`organization_id`, `position`) WHERE parent_id IS NULL;
-- Create index "space_deleted_at" to table: "spaces"
CREATE INDEX `space_deleted_at` ON `spaces` (`deleted_at`);
-- Create index "space_organization_id_visibility" to table: "spaces"
CREATE INDEX `space_organization_id_visibility` ON `spaces` (`organization_id`, `visibility`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

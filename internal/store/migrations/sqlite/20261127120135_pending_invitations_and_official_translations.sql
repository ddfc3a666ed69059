-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create index "invite_organization_id_email" to table: "invites"
CREATE UNIQUE INDEX `invite_organization_id_email` ON `invites` (`organization_id`, `email`);
-- Create index "invite_email" to table: "invites"
CREATE INDEX `invite_email` ON `invites` (`email`);
-- Create "new_translation_settings" table
CREATE TABLE `new_translation_settings` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `languages` json NOT NULL, `source_language` text NULL, `language` text NULL, `instructions` json NULL, `organization_id` text NOT NULL, `source_space_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `translation_settings_organizations_translation_settings` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `translation_settings_spaces_source_space` FOREIGN KEY (`source_space_id`) REFERENCES `spaces` (`id`) ON DELETE SET NULL);
-- Copy rows from old table "translation_settings" to new temporary table "new_translation_settings"
INSERT INTO `new_translation_settings` (`id`, `created_at`, `updated_at`, `title`, `languages`, `organization_id`) SELECT `id`, `created_at`, `updated_at`, `title`, `languages`, `organization_id` FROM `translation_settings`;
-- Drop "translation_settings" table after copying rows
DROP TABLE `translation_settings`;
-- Rename temporary table "new_translation_settings" to "translation_settings"
ALTER TABLE `new_translation_settings` RENAME TO `translation_settings`;
-- Create index "translationsettings_organization_id_created_at" to table: "translation_settings"
CREATE INDEX `translationsettings_organization_id_created_at` ON `translation_settings` (`organization_id`, `created_at`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

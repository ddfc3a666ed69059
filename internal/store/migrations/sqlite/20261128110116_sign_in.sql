-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_api_tokens" table
CREATE TABLE `new_api_tokens` (`id` text NOT NULL, `created_at` datetime NOT NULL, `label` text NOT NULL, `token_hash` text NOT NULL, `last_used_at` datetime NULL, `expires_at` datetime NULL, `kind` text NOT NULL DEFAULT ('token'), `method` text NULL, `user_agent` text NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `api_tokens_users_tokens` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "api_tokens" to new temporary table "new_api_tokens"
INSERT INTO `new_api_tokens` (`id`, `created_at`, `label`, `token_hash`, `last_used_at`, `expires_at`, `user_id`) SELECT `id`, `created_at`, `label`, `token_hash`, `last_used_at`, `expires_at`, `user_id` FROM `api_tokens`;
-- Drop "api_tokens" table after copying rows
DROP TABLE `api_tokens`;
-- Rename temporary table "new_api_tokens" to "api_tokens"
ALTER TABLE `new_api_tokens` RENAME TO `api_tokens`;
-- Create index "api_tokens_token_hash_key" to table: "api_tokens"
CREATE UNIQUE INDEX `api_tokens_token_hash_key` ON `api_tokens` (`token_hash`);
-- Create "sign_in_flows" table
CREATE TABLE `sign_in_flows` (`id` text NOT NULL, `created_at` datetime NOT NULL, `kind` text NOT NULL, `secret_hash` text NOT NULL, `email` text NULL, `provider` text NULL, `nonce` text NULL, `verifier` text NULL, `return_to` text NULL, `expires_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "sign_in_flows_secret_hash_key" to table: "sign_in_flows"
CREATE UNIQUE INDEX `sign_in_flows_secret_hash_key` ON `sign_in_flows` (`secret_hash`);
-- Create index "signinflow_expires_at" to table: "sign_in_flows"
CREATE INDEX `signinflow_expires_at` ON `sign_in_flows` (`expires_at`);
-- Create "sign_in_replays" table
CREATE TABLE `sign_in_replays` (`id` text NOT NULL, `created_at` datetime NOT NULL, `key` text NOT NULL, `expires_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "sign_in_replays_key_key" to table: "sign_in_replays"
CREATE UNIQUE INDEX `sign_in_replays_key_key` ON `sign_in_replays` (`key`);
-- Create index "signinreplay_expires_at" to table: "sign_in_replays"
CREATE INDEX `signinreplay_expires_at` ON `sign_in_replays` (`expires_at`);
-- Create "user_identities" table
CREATE TABLE `user_identities` (`id` text NOT NULL, `created_at` datetime NOT NULL, `issuer` text NOT NULL, `subject` text NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `user_identities_users_identities` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "useridentity_issuer_subject" to table: "user_identities"
CREATE UNIQUE INDEX `useridentity_issuer_subject` ON `user_identities` (`issuer`, `subject`);
-- Create index "useridentity_user_id" to table: "user_identities"
CREATE INDEX `useridentity_user_id` ON `user_identities` (`user_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_webhook_endpoints" table
CREATE TABLE `new_webhook_endpoints` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `url` text NOT NULL, `event_types` json NOT NULL, `active` bool NOT NULL DEFAULT (true), `description` text NOT NULL DEFAULT (''), `secret` text NOT NULL, `disabled_reason` text NULL, `disabled_at` datetime NULL, `failures` integer NOT NULL DEFAULT (0), `integration_id` text NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `webhook_endpoints_integrations_webhook_endpoints` FOREIGN KEY (`integration_id`) REFERENCES `integrations` (`id`) ON DELETE CASCADE, CONSTRAINT `webhook_endpoints_organizations_webhook_endpoints` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "webhook_endpoints" to new temporary table "new_webhook_endpoints"
INSERT INTO `new_webhook_endpoints` (`id`, `created_at`, `updated_at`, `url`, `event_types`, `active`, `description`, `secret`, `disabled_reason`, `disabled_at`, `failures`, `organization_id`) SELECT `id`, `created_at`, `updated_at`, `url`, `event_types`, `active`, `description`, `secret`, `disabled_reason`, `disabled_at`, `failures`, `organization_id` FROM `webhook_endpoints`;
-- Drop "webhook_endpoints" table after copying rows
DROP TABLE `webhook_endpoints`;
-- Rename temporary table "new_webhook_endpoints" to "webhook_endpoints"
ALTER TABLE `new_webhook_endpoints` RENAME TO `webhook_endpoints`;
-- Create index "webhookendpoint_organization_id_created_at" to table: "webhook_endpoints"
CREATE INDEX `webhookendpoint_organization_id_created_at` ON `webhook_endpoints` (`organization_id`, `created_at`);
-- Create index "webhookendpoint_integration_id" to table: "webhook_endpoints"
CREATE INDEX `webhookendpoint_integration_id` ON `webhook_endpoints` (`integration_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

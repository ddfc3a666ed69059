-- Create "webhook_deliveries" table
CREATE TABLE `webhook_deliveries` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `event_id` text NOT NULL, `event_type` text NOT NULL, `payload` text NOT NULL, `state` text NOT NULL DEFAULT ('pending'), `next_attempt_at` datetime NULL, `redelivery_of` text NULL, `claimed_by` text NULL, `claimed_until` datetime NULL, `attempts` json NOT NULL, `endpoint_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `webhook_deliveries_webhook_endpoints_deliveries` FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints` (`id`) ON DELETE CASCADE);
-- Create index "webhookdelivery_endpoint_id_created_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_endpoint_id_created_at` ON `webhook_deliveries` (`endpoint_id`, `created_at`);
-- Create index "webhookdelivery_state_next_attempt_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_state_next_attempt_at` ON `webhook_deliveries` (`state`, `next_attempt_at`);
-- Create index "webhookdelivery_created_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_created_at` ON `webhook_deliveries` (`created_at`);
-- Create "webhook_endpoints" table
CREATE TABLE `webhook_endpoints` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `url` text NOT NULL, `event_types` json NOT NULL, `active` bool NOT NULL DEFAULT (true), `description` text NOT NULL DEFAULT (''), `secret` text NOT NULL, `disabled_reason` text NULL, `disabled_at` datetime NULL, `failures` integer NOT NULL DEFAULT (0), `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `webhook_endpoints_organizations_webhook_endpoints` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "webhookendpoint_organization_id_created_at" to table: "webhook_endpoints"
CREATE INDEX `webhookendpoint_organization_id_created_at` ON `webhook_endpoints` (`organization_id`, `created_at`);

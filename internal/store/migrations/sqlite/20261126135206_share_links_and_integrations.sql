-- Add column "block_domains" to table: "integrations"
ALTER TABLE `integrations` ADD COLUMN `block_domains` json NOT NULL DEFAULT '[]';
-- Add column "unpublished_at" to table: "integrations"
ALTER TABLE `integrations` ADD COLUMN `unpublished_at` datetime NULL;
-- Create index "integration_created_at" to table: "integrations"
CREATE INDEX `integration_created_at` ON `integrations` (`created_at`);
-- Create index "integration_organization_id_created_at" to table: "integrations"
CREATE INDEX `integration_organization_id_created_at` ON `integrations` (`organization_id`, `created_at`);
-- Create index "integrationinstallation_organization_id_created_at" to table: "integration_installations"
CREATE INDEX `integrationinstallation_organization_id_created_at` ON `integration_installations` (`organization_id`, `created_at`);
-- Create index "sharelink_site_id_created_at" to table: "share_links"
CREATE INDEX `sharelink_site_id_created_at` ON `share_links` (`site_id`, `created_at`);
-- Create index "sharelink_space_id_created_at" to table: "share_links"
CREATE INDEX `sharelink_space_id_created_at` ON `share_links` (`space_id`, `created_at`);

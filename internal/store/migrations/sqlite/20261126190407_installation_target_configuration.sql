-- Add column "configuration" to table: "integration_installation_spaces"
ALTER TABLE `integration_installation_spaces` ADD COLUMN `configuration` json NULL DEFAULT '{}';
-- Add column "external_ids" to table: "integration_installation_spaces"
ALTER TABLE `integration_installation_spaces` ADD COLUMN `external_ids` json NULL DEFAULT '[]';
-- Add column "configuration" to table: "integration_installation_sites"
ALTER TABLE `integration_installation_sites` ADD COLUMN `configuration` json NULL DEFAULT '{}';
-- Add column "external_ids" to table: "integration_installation_sites"
ALTER TABLE `integration_installation_sites` ADD COLUMN `external_ids` json NULL DEFAULT '[]';

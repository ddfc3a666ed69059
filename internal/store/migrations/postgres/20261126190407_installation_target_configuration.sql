-- Modify "integration_installation_sites" table
ALTER TABLE "integration_installation_sites" ADD COLUMN "configuration" json NULL DEFAULT '{}', ADD COLUMN "external_ids" json NULL DEFAULT '[]';
-- Modify "integration_installation_spaces" table
ALTER TABLE "integration_installation_spaces" ADD COLUMN "configuration" json NULL DEFAULT '{}', ADD COLUMN "external_ids" json NULL DEFAULT '[]';

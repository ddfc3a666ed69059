-- Add column "git_oid" to table: "revisions"
ALTER TABLE `revisions` ADD COLUMN `git_oid` text NULL;
-- Add column "git_message" to table: "revisions"
ALTER TABLE `revisions` ADD COLUMN `git_message` text NULL;
-- Add column "git_ref" to table: "revisions"
ALTER TABLE `revisions` ADD COLUMN `git_ref` text NULL;

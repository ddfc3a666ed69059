-- Add column "visitor_auth_private_key" to table: "spaces"
ALTER TABLE `spaces` ADD COLUMN `visitor_auth_private_key` text NULL;

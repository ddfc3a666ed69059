-- Create index "invite_email" to table: "invites"
CREATE INDEX "invite_email" ON "invites" ("email");
-- Create index "invite_organization_id_email" to table: "invites"
CREATE UNIQUE INDEX "invite_organization_id_email" ON "invites" ("organization_id", "email");
-- Modify "translation_settings" table
ALTER TABLE "translation_settings" ADD COLUMN "source_language" character varying NULL, ADD COLUMN "language" character varying NULL, ADD COLUMN "instructions" json NULL, ADD COLUMN "source_space_id" character varying NULL, ADD CONSTRAINT "translation_settings_spaces_source_space" FOREIGN KEY ("source_space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;

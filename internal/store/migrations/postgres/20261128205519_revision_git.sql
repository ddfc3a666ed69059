-- Modify "revisions" table
ALTER TABLE "revisions" ADD COLUMN "git_oid" character varying NULL, ADD COLUMN "git_message" character varying NULL, ADD COLUMN "git_ref" character varying NULL;

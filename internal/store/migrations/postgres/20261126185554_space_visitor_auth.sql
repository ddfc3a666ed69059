-- Modify "spaces" table
ALTER TABLE "spaces" ADD COLUMN "visitor_auth_private_key" character varying NULL;

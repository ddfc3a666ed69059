-- The access epoch: a counter that every change to what a token's viewer
-- statement reads about its user (memberships, grants, team memberships, and
-- the webhook endpoints and installations that say whether an organization
-- has somewhere to deliver) moves forward, in the transaction that makes the
-- change. A server keeps a user's facts with the epoch they were read at and
-- reuses them while the epoch read with the token is the same (see
-- graph.viewerCache). Triggers, not application code, so that no path that
-- writes these tables (a cascade, a restore, an operator's SQL) can forget.

CREATE TABLE "access_epoch" ("id" integer NOT NULL PRIMARY KEY CHECK ("id" = 1), "epoch" bigint NOT NULL);
INSERT INTO "access_epoch" ("id", "epoch") VALUES (1, 0);
-- The counter moved is the one in the schema of the table whose change fired
-- the trigger, whatever the search_path of the session that made it (an
-- operator's psql, a restore).
CREATE FUNCTION "access_epoch_advance"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN EXECUTE format('UPDATE %I."access_epoch" SET "epoch" = "epoch" + 1', TG_TABLE_SCHEMA); RETURN NULL; END $$;
-- members: a row added or removed, or one of organization_id, user_id, role, disabled changed
CREATE TRIGGER "members_access_epoch" AFTER INSERT OR DELETE ON "members" FOR EACH ROW EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "members_access_epoch_update" AFTER UPDATE ON "members" FOR EACH ROW WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."role" IS DISTINCT FROM NEW."role" OR OLD."disabled" IS DISTINCT FROM NEW."disabled") EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "members_access_epoch_truncate" AFTER TRUNCATE ON "members" FOR EACH STATEMENT EXECUTE FUNCTION "access_epoch_advance"();
-- content_grants: a row added or removed, or one of user_id, team_id, collection_id, space_id, role changed
CREATE TRIGGER "content_grants_access_epoch" AFTER INSERT OR DELETE ON "content_grants" FOR EACH ROW EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "content_grants_access_epoch_update" AFTER UPDATE ON "content_grants" FOR EACH ROW WHEN (OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."team_id" IS DISTINCT FROM NEW."team_id" OR OLD."collection_id" IS DISTINCT FROM NEW."collection_id" OR OLD."space_id" IS DISTINCT FROM NEW."space_id" OR OLD."role" IS DISTINCT FROM NEW."role") EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "content_grants_access_epoch_truncate" AFTER TRUNCATE ON "content_grants" FOR EACH STATEMENT EXECUTE FUNCTION "access_epoch_advance"();
-- team_members: a row added or removed, or one of team_id, user_id changed
CREATE TRIGGER "team_members_access_epoch" AFTER INSERT OR DELETE ON "team_members" FOR EACH ROW EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "team_members_access_epoch_update" AFTER UPDATE ON "team_members" FOR EACH ROW WHEN (OLD."team_id" IS DISTINCT FROM NEW."team_id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id") EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "team_members_access_epoch_truncate" AFTER TRUNCATE ON "team_members" FOR EACH STATEMENT EXECUTE FUNCTION "access_epoch_advance"();
-- webhook_endpoints: a row added or removed, or one of organization_id, integration_id, active changed
CREATE TRIGGER "webhook_endpoints_access_epoch" AFTER INSERT OR DELETE ON "webhook_endpoints" FOR EACH ROW EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "webhook_endpoints_access_epoch_update" AFTER UPDATE ON "webhook_endpoints" FOR EACH ROW WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id" OR OLD."integration_id" IS DISTINCT FROM NEW."integration_id" OR OLD."active" IS DISTINCT FROM NEW."active") EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "webhook_endpoints_access_epoch_truncate" AFTER TRUNCATE ON "webhook_endpoints" FOR EACH STATEMENT EXECUTE FUNCTION "access_epoch_advance"();
-- integration_installations: a row added or removed, or one of organization_id, integration_id, status changed
CREATE TRIGGER "integration_installations_access_epoch" AFTER INSERT OR DELETE ON "integration_installations" FOR EACH ROW EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "integration_installations_access_epoch_update" AFTER UPDATE ON "integration_installations" FOR EACH ROW WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id" OR OLD."integration_id" IS DISTINCT FROM NEW."integration_id" OR OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "access_epoch_advance"();
CREATE TRIGGER "integration_installations_access_epoch_truncate" AFTER TRUNCATE ON "integration_installations" FOR EACH STATEMENT EXECUTE FUNCTION "access_epoch_advance"();

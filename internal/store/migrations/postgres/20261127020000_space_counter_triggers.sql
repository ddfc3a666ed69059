-- The counters of a space (see the Space schema): triggers keep them in the
-- transaction of every change to a change request (all, open, draft) or to a
-- comment on the space itself (open, and not on a change request), so that a
-- space's row holds them. They used to be correlated counts computed at
-- every read of a space that showed them. The rows that exist are counted
-- once here.

UPDATE "spaces" SET
  "cr_count" = (SELECT COUNT(*) FROM "change_requests" AS "n" WHERE "n"."space_id" = "spaces"."id"),
  "cr_open_count" = (SELECT COUNT(*) FROM "change_requests" AS "n" WHERE "n"."space_id" = "spaces"."id" AND "n"."status" = 'open'),
  "cr_draft_count" = (SELECT COUNT(*) FROM "change_requests" AS "n" WHERE "n"."space_id" = "spaces"."id" AND "n"."status" = 'draft'),
  "comment_open_count" = (SELECT COUNT(*) FROM "comments" AS "n" WHERE "n"."space_id" = "spaces"."id" AND "n"."change_request_id" IS NULL AND "n"."status" = 'open');
-- The spaces updated are those of the schema of the table changed, whatever
-- the search_path of the session that changed it (as access_epoch_advance).
CREATE FUNCTION "space_counters_change_request"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'TRUNCATE' THEN EXECUTE format('UPDATE %I."spaces" SET "cr_count" = 0, "cr_open_count" = 0, "cr_draft_count" = 0', TG_TABLE_SCHEMA); RETURN NULL; END IF; IF TG_OP IN ('UPDATE', 'DELETE') THEN EXECUTE format('UPDATE %I."spaces" SET "cr_count" = "cr_count" - 1, "cr_open_count" = "cr_open_count" - ($2 = ''open'')::int, "cr_draft_count" = "cr_draft_count" - ($2 = ''draft'')::int WHERE "id" = $1', TG_TABLE_SCHEMA) USING OLD."space_id", OLD."status"; END IF; IF TG_OP IN ('UPDATE', 'INSERT') THEN EXECUTE format('UPDATE %I."spaces" SET "cr_count" = "cr_count" + 1, "cr_open_count" = "cr_open_count" + ($2 = ''open'')::int, "cr_draft_count" = "cr_draft_count" + ($2 = ''draft'')::int WHERE "id" = $1', TG_TABLE_SCHEMA) USING NEW."space_id", NEW."status"; END IF; RETURN NULL; END $$;
CREATE TRIGGER "change_requests_space_counters" AFTER INSERT OR DELETE ON "change_requests" FOR EACH ROW EXECUTE FUNCTION "space_counters_change_request"();
CREATE TRIGGER "change_requests_space_counters_update" AFTER UPDATE ON "change_requests" FOR EACH ROW WHEN (OLD."space_id" IS DISTINCT FROM NEW."space_id" OR OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "space_counters_change_request"();
CREATE TRIGGER "change_requests_space_counters_truncate" AFTER TRUNCATE ON "change_requests" FOR EACH STATEMENT EXECUTE FUNCTION "space_counters_change_request"();
CREATE FUNCTION "space_counters_comment"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'TRUNCATE' THEN EXECUTE format('UPDATE %I."spaces" SET "comment_open_count" = 0', TG_TABLE_SCHEMA); RETURN NULL; END IF; IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."change_request_id" IS NULL AND OLD."status" = 'open' THEN EXECUTE format('UPDATE %I."spaces" SET "comment_open_count" = "comment_open_count" - 1 WHERE "id" = $1', TG_TABLE_SCHEMA) USING OLD."space_id"; END IF; IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."change_request_id" IS NULL AND NEW."status" = 'open' THEN EXECUTE format('UPDATE %I."spaces" SET "comment_open_count" = "comment_open_count" + 1 WHERE "id" = $1', TG_TABLE_SCHEMA) USING NEW."space_id"; END IF; RETURN NULL; END $$;
CREATE TRIGGER "comments_space_counters" AFTER INSERT OR DELETE ON "comments" FOR EACH ROW EXECUTE FUNCTION "space_counters_comment"();
CREATE TRIGGER "comments_space_counters_update" AFTER UPDATE ON "comments" FOR EACH ROW WHEN (OLD."space_id" IS DISTINCT FROM NEW."space_id" OR OLD."status" IS DISTINCT FROM NEW."status" OR OLD."change_request_id" IS DISTINCT FROM NEW."change_request_id") EXECUTE FUNCTION "space_counters_comment"();
CREATE TRIGGER "comments_space_counters_truncate" AFTER TRUNCATE ON "comments" FOR EACH STATEMENT EXECUTE FUNCTION "space_counters_comment"();

-- Modify "spaces" table
ALTER TABLE "spaces" ADD COLUMN "cr_count" bigint NOT NULL DEFAULT 0, ADD COLUMN "cr_open_count" bigint NOT NULL DEFAULT 0, ADD COLUMN "cr_draft_count" bigint NOT NULL DEFAULT 0, ADD COLUMN "comment_open_count" bigint NOT NULL DEFAULT 0;

-- A site's sections and section groups now share one order, and unique
-- indexes hold section paths within a site, site-space paths among
-- siblings and one default section per site and site-space per parent.
-- Concurrent writers on PostgreSQL could leave rows that break them; they
-- are mended first, keeping the oldest (or first) row of each clash:
--   - a repeated path becomes the path, cut short, then "-" and the row's
--     ID (at most 100 characters, and unique);
--   - of several defaults, the first by position stays one; where there is
--     none, the first by position becomes it;
--   - sections and groups are numbered anew, 1024 apart, in the order the
--     published structure showed them: sections by position, each group
--     just before its first section; groups without sections go last.
UPDATE "site_sections" SET "path" = substr("path", 1, 99 - length("id")) || '-' || "id"
  WHERE EXISTS (SELECT 1 FROM "site_sections" AS "o" WHERE "o"."site_id" = "site_sections"."site_id" AND "o"."path" = "site_sections"."path"
    AND ("o"."created_at", "o"."id") < ("site_sections"."created_at", "site_sections"."id"));
UPDATE "site_spaces" SET "path" = substr("path", 1, 99 - length("id")) || '-' || "id"
  WHERE EXISTS (SELECT 1 FROM "site_spaces" AS "o" WHERE "o"."site_id" = "site_spaces"."site_id"
    AND "o"."section_id" IS NOT DISTINCT FROM "site_spaces"."section_id" AND "o"."path" = "site_spaces"."path"
    AND ("o"."created_at", "o"."id") < ("site_spaces"."created_at", "site_spaces"."id"));
UPDATE "site_sections" SET "is_default" = false
  WHERE "is_default" AND EXISTS (SELECT 1 FROM "site_sections" AS "o" WHERE "o"."site_id" = "site_sections"."site_id" AND "o"."is_default"
    AND ("o"."position", "o"."id") < ("site_sections"."position", "site_sections"."id"));
UPDATE "site_sections" SET "is_default" = true
  WHERE NOT EXISTS (SELECT 1 FROM "site_sections" AS "o" WHERE "o"."site_id" = "site_sections"."site_id" AND "o"."is_default")
    AND NOT EXISTS (SELECT 1 FROM "site_sections" AS "o" WHERE "o"."site_id" = "site_sections"."site_id"
      AND ("o"."position", "o"."id") < ("site_sections"."position", "site_sections"."id"));
UPDATE "site_spaces" SET "is_default" = false
  WHERE "is_default" AND EXISTS (SELECT 1 FROM "site_spaces" AS "o" WHERE "o"."site_id" = "site_spaces"."site_id"
    AND "o"."section_id" IS NOT DISTINCT FROM "site_spaces"."section_id" AND "o"."is_default"
    AND ("o"."position", "o"."id") < ("site_spaces"."position", "site_spaces"."id"));
UPDATE "site_spaces" SET "is_default" = true
  WHERE NOT EXISTS (SELECT 1 FROM "site_spaces" AS "o" WHERE "o"."site_id" = "site_spaces"."site_id"
      AND "o"."section_id" IS NOT DISTINCT FROM "site_spaces"."section_id" AND "o"."is_default")
    AND NOT EXISTS (SELECT 1 FROM "site_spaces" AS "o" WHERE "o"."site_id" = "site_spaces"."site_id"
      AND "o"."section_id" IS NOT DISTINCT FROM "site_spaces"."section_id"
      AND ("o"."position", "o"."id") < ("site_spaces"."position", "site_spaces"."id"));
CREATE TEMPORARY TABLE "site_order" AS
  SELECT "id", 1024 * ROW_NUMBER() OVER (PARTITION BY "site_id" ORDER BY "k0", "k1", "k2", "id") AS "position" FROM (
    SELECT "site_id", "id", 0 AS "k0", "position" AS "k1", 1 AS "k2" FROM "site_sections"
    UNION ALL
    SELECT "g"."site_id", "g"."id", CASE WHEN "f"."first" IS NULL THEN 1 ELSE 0 END, COALESCE("f"."first", "g"."position"), 0
      FROM "site_section_groups" AS "g" LEFT JOIN (SELECT "group_id", MIN("position") AS "first" FROM "site_sections"
        WHERE "group_id" IS NOT NULL GROUP BY "group_id") AS "f" ON "f"."group_id" = "g"."id"
  ) AS "items";
UPDATE "site_sections" SET "position" = "o"."position" FROM "site_order" AS "o" WHERE "o"."id" = "site_sections"."id";
UPDATE "site_section_groups" SET "position" = "o"."position" FROM "site_order" AS "o" WHERE "o"."id" = "site_section_groups"."id";
DROP TABLE "site_order";
-- Create index "sitesection_site_default" to table: "site_sections"
CREATE UNIQUE INDEX "sitesection_site_default" ON "site_sections" ("site_id") WHERE is_default;
-- Create index "sitesection_site_id_path" to table: "site_sections"
CREATE UNIQUE INDEX "sitesection_site_id_path" ON "site_sections" ("site_id", "path");
-- Create index "sitespace_root_default" to table: "site_spaces"
CREATE UNIQUE INDEX "sitespace_root_default" ON "site_spaces" ("site_id") WHERE (is_default AND (section_id IS NULL));
-- Create index "sitespace_root_path" to table: "site_spaces"
CREATE UNIQUE INDEX "sitespace_root_path" ON "site_spaces" ("site_id", "path") WHERE (section_id IS NULL);
-- Create index "sitespace_section_default" to table: "site_spaces"
CREATE UNIQUE INDEX "sitespace_section_default" ON "site_spaces" ("section_id") WHERE (is_default AND (section_id IS NOT NULL));
-- Create index "sitespace_section_path" to table: "site_spaces"
CREATE UNIQUE INDEX "sitespace_section_path" ON "site_spaces" ("section_id", "path") WHERE (section_id IS NOT NULL);

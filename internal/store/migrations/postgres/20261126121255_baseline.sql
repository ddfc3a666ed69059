-- Create "api_tokens" table
CREATE TABLE "api_tokens" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "label" character varying NOT NULL, "token_hash" character varying NOT NULL, "last_used_at" timestamptz NULL, "expires_at" timestamptz NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "api_tokens_token_hash_key" to table: "api_tokens"
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens" ("token_hash");
-- Create "change_requests" table
CREATE TABLE "change_requests" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "number" bigint NOT NULL, "status" character varying NOT NULL DEFAULT 'open', "subject" character varying NOT NULL DEFAULT '', "merged_at" timestamptz NULL, "created_by_id" character varying NULL, "revision_id" character varying NOT NULL, "revision_initial_id" character varying NOT NULL, "revision_merged_ancestor_id" character varying NULL, "revision_merged_id" character varying NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "changerequest_revision_merged_id" to table: "change_requests"
CREATE UNIQUE INDEX "changerequest_revision_merged_id" ON "change_requests" ("revision_merged_id");
-- Create index "changerequest_space_id_number" to table: "change_requests"
CREATE UNIQUE INDEX "changerequest_space_id_number" ON "change_requests" ("space_id", "number");
-- Create index "changerequest_space_id_status" to table: "change_requests"
CREATE INDEX "changerequest_space_id_status" ON "change_requests" ("space_id", "status");
-- Create "collections" table
CREATE TABLE "collections" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NOT NULL DEFAULT '', "description" character varying NULL, "default_level" character varying NULL DEFAULT 'inherit', "position" double precision NOT NULL DEFAULT 0, "parent_id" character varying NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "collections_collections_children" FOREIGN KEY ("parent_id") REFERENCES "collections" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "collection_organization_id_created_at" to table: "collections"
CREATE INDEX "collection_organization_id_created_at" ON "collections" ("organization_id", "created_at");
-- Create index "collection_organization_id_position" to table: "collections"
CREATE INDEX "collection_organization_id_position" ON "collections" ("organization_id", "position") WHERE (parent_id IS NULL);
-- Create index "collection_parent_id_position" to table: "collections"
CREATE INDEX "collection_parent_id_position" ON "collections" ("parent_id", "position");
-- Create "comments" table
CREATE TABLE "comments" ("id" character varying NOT NULL, "page_id" character varying NULL, "page_hash" character varying NULL, "node_id" character varying NULL, "body" text NOT NULL, "status" character varying NOT NULL DEFAULT 'open', "posted_at" timestamptz NOT NULL, "edited_at" timestamptz NULL, "resolved_at" timestamptz NULL, "change_request_id" character varying NULL, "revision_id" character varying NULL, "posted_by_id" character varying NULL, "resolved_by_id" character varying NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "comment_change_request_id_posted_at" to table: "comments"
CREATE INDEX "comment_change_request_id_posted_at" ON "comments" ("change_request_id", "posted_at");
-- Create index "comment_space_id_change_request_id_posted_at" to table: "comments"
CREATE INDEX "comment_space_id_change_request_id_posted_at" ON "comments" ("space_id", "change_request_id", "posted_at");
-- Create "comment_replies" table
CREATE TABLE "comment_replies" ("id" character varying NOT NULL, "body" text NOT NULL, "posted_at" timestamptz NOT NULL, "edited_at" timestamptz NULL, "comment_id" character varying NOT NULL, "posted_by_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "commentreply_comment_id_posted_at" to table: "comment_replies"
CREATE INDEX "commentreply_comment_id_posted_at" ON "comment_replies" ("comment_id", "posted_at");
-- Create "content_grants" table
CREATE TABLE "content_grants" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "role" character varying NOT NULL, "collection_id" character varying NULL, "space_id" character varying NULL, "team_id" character varying NULL, "user_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "contentgrant_collection_id" to table: "content_grants"
CREATE INDEX "contentgrant_collection_id" ON "content_grants" ("collection_id");
-- Create index "contentgrant_space_id" to table: "content_grants"
CREATE INDEX "contentgrant_space_id" ON "content_grants" ("space_id");
-- Create index "contentgrant_team_id" to table: "content_grants"
CREATE INDEX "contentgrant_team_id" ON "content_grants" ("team_id");
-- Create index "contentgrant_user_id" to table: "content_grants"
CREATE INDEX "contentgrant_user_id" ON "content_grants" ("user_id");
-- Create "content_objects" table
CREATE TABLE "content_objects" ("id" character varying NOT NULL, "kind" character varying NOT NULL, "data" bytea NOT NULL, "size" bigint NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create "integrations" table
CREATE TABLE "integrations" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "name" character varying NOT NULL, "version" bigint NOT NULL DEFAULT 1, "title" character varying NOT NULL, "description" character varying NOT NULL DEFAULT '', "summary" text NULL, "target" character varying NOT NULL DEFAULT 'all', "visibility" character varying NOT NULL DEFAULT 'private', "verified" boolean NOT NULL DEFAULT false, "scopes" json NOT NULL, "categories" json NOT NULL, "icon" text NULL, "preview_images" json NOT NULL, "script" text NOT NULL, "secrets" json NOT NULL, "blocks" json NULL, "content_sources" json NULL, "configurations" json NULL, "external_links" json NULL, "content_security_policy" json NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "integrations_name_key" to table: "integrations"
CREATE UNIQUE INDEX "integrations_name_key" ON "integrations" ("name");
-- Create "integration_installations" table
CREATE TABLE "integration_installations" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "status" character varying NOT NULL DEFAULT 'active', "space_selection" character varying NOT NULL DEFAULT 'all', "site_selection" character varying NOT NULL DEFAULT 'all', "configuration" json NOT NULL, "external_ids" json NOT NULL, "integration_id" character varying NOT NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "integrationinstallation_integration_id_organization_id" to table: "integration_installations"
CREATE UNIQUE INDEX "integrationinstallation_integration_id_organization_id" ON "integration_installations" ("integration_id", "organization_id");
-- Create "invites" table
CREATE TABLE "invites" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "role" character varying NULL, "email" character varying NULL, "sso" boolean NOT NULL DEFAULT false, "accepted_at" timestamptz NULL, "space_id" character varying NULL, "collection_id" character varying NULL, "created_by_id" character varying NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "invite_organization_id_created_at" to table: "invites"
CREATE INDEX "invite_organization_id_created_at" ON "invites" ("organization_id", "created_at");
-- Create "members" table
CREATE TABLE "members" ("id" character varying NOT NULL, "role" character varying NULL, "disabled" boolean NOT NULL DEFAULT false, "sso" boolean NOT NULL DEFAULT false, "joined_at" timestamptz NOT NULL, "last_seen_at" timestamptz NULL, "organization_id" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "member_organization_id_user_id" to table: "members"
CREATE UNIQUE INDEX "member_organization_id_user_id" ON "members" ("organization_id", "user_id");
-- Create index "member_user_id" to table: "members"
CREATE INDEX "member_user_id" ON "members" ("user_id");
-- Create "open_api_specs" table
CREATE TABLE "open_api_specs" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "slug" character varying NOT NULL, "source_url" character varying NULL, "source_text" text NULL, "visibility" character varying NOT NULL DEFAULT 'private', "processing_state" character varying NOT NULL DEFAULT 'pending', "progress" bigint NOT NULL DEFAULT 0, "last_processed_at" timestamptz NULL, "last_process_error_code" character varying NULL, "last_processed_errors" json NULL, "claimed_until" timestamptz NULL, "claimed_by" character varying NULL, "next_fetch_at" timestamptz NULL, "last_version_id" character varying NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "openapispec_next_fetch_at" to table: "open_api_specs"
CREATE INDEX "openapispec_next_fetch_at" ON "open_api_specs" ("next_fetch_at");
-- Create index "openapispec_organization_id_created_at" to table: "open_api_specs"
CREATE INDEX "openapispec_organization_id_created_at" ON "open_api_specs" ("organization_id", "created_at");
-- Create index "openapispec_organization_id_slug" to table: "open_api_specs"
CREATE UNIQUE INDEX "openapispec_organization_id_slug" ON "open_api_specs" ("organization_id", "slug");
-- Create index "openapispec_processing_state_claimed_until" to table: "open_api_specs"
CREATE INDEX "openapispec_processing_state_claimed_until" ON "open_api_specs" ("processing_state", "claimed_until");
-- Create "open_api_spec_versions" table
CREATE TABLE "open_api_spec_versions" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "source_url" character varying NULL, "content" text NOT NULL, "digest" character varying NOT NULL, "spec_version" character varying NOT NULL, "operations" json NOT NULL, "spec_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "openapispecversion_spec_id_created_at" to table: "open_api_spec_versions"
CREATE INDEX "openapispecversion_spec_id_created_at" ON "open_api_spec_versions" ("spec_id", "created_at");
-- Create "organizations" table
CREATE TABLE "organizations" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NOT NULL, "hostname" character varying NULL, "type" character varying NOT NULL DEFAULT 'business', "use_case" character varying NULL, "community_type" character varying NULL, "default_role" character varying NULL, "sso" boolean NOT NULL DEFAULT false, "ai" boolean NOT NULL DEFAULT false, "invite_links" boolean NOT NULL DEFAULT true, "plan" character varying NOT NULL DEFAULT 'enterprise_2024', "email_domains" json NOT NULL, "logo_url" character varying NULL, "custom_hostname" character varying NULL, "default_site_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "organizations_custom_hostname_key" to table: "organizations"
CREATE UNIQUE INDEX "organizations_custom_hostname_key" ON "organizations" ("custom_hostname");
-- Create index "organizations_hostname_key" to table: "organizations"
CREATE UNIQUE INDEX "organizations_hostname_key" ON "organizations" ("hostname");
-- Create "reactions" table
CREATE TABLE "reactions" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "emoji" character varying NOT NULL, "comment_id" character varying NULL, "reply_id" character varying NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "reaction_comment_user_emoji" to table: "reactions"
CREATE UNIQUE INDEX "reaction_comment_user_emoji" ON "reactions" ("comment_id", "user_id", "emoji") WHERE (reply_id IS NULL);
-- Create index "reaction_reply_user_emoji" to table: "reactions"
CREATE UNIQUE INDEX "reaction_reply_user_emoji" ON "reactions" ("reply_id", "user_id", "emoji") WHERE (comment_id IS NULL);
-- Create "revisions" table
CREATE TABLE "revisions" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "type" character varying NOT NULL, "parents" json NOT NULL, "pages_root" character varying NULL, "files_root" character varying NULL, "reusable_contents_root" character varying NULL, "message" character varying NULL, "change_request_id" character varying NULL, "created_by_id" character varying NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "revision_change_request_id" to table: "revisions"
CREATE INDEX "revision_change_request_id" ON "revisions" ("change_request_id");
-- Create index "revision_space_id_created_at" to table: "revisions"
CREATE INDEX "revision_space_id_created_at" ON "revisions" ("space_id", "created_at");
-- Create "saml_providers" table
CREATE TABLE "saml_providers" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "label" character varying NOT NULL, "sso_url" character varying NULL, "entity_id" character varying NULL, "certificate" text NULL, "default_role" character varying NULL, "status" character varying NOT NULL DEFAULT 'pending', "organization_id" character varying NOT NULL, "default_team_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "samlprovider_organization_id_created_at" to table: "saml_providers"
CREATE INDEX "samlprovider_organization_id_created_at" ON "saml_providers" ("organization_id", "created_at");
-- Create "share_links" table
CREATE TABLE "share_links" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "key" character varying NOT NULL, "name" character varying NULL, "active" boolean NOT NULL DEFAULT true, "site_id" character varying NULL, "space_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "share_links_key_key" to table: "share_links"
CREATE UNIQUE INDEX "share_links_key_key" ON "share_links" ("key");
-- Create "sites" table
CREATE TABLE "sites" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "type" character varying NOT NULL DEFAULT 'basic', "title" character varying NOT NULL, "hostname" character varying NULL, "basename" character varying NULL, "proxy_origin" character varying NULL, "visibility" character varying NOT NULL DEFAULT 'public', "published" boolean NOT NULL DEFAULT false, "adaptive_content" boolean NOT NULL DEFAULT false, "adaptive_schema" json NULL, "adaptive_schema_updated_at" timestamptz NULL, "agents_context" character varying NOT NULL DEFAULT 'included', "visitor_auth_private_key" character varying NULL, "visitor_auth_fallback_url" character varying NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "site_organization_id_created_at" to table: "sites"
CREATE INDEX "site_organization_id_created_at" ON "sites" ("organization_id", "created_at");
-- Create index "sites_hostname_key" to table: "sites"
CREATE UNIQUE INDEX "sites_hostname_key" ON "sites" ("hostname");
-- Create "site_redirects" table
CREATE TABLE "site_redirects" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "source" character varying NOT NULL, "destination" json NOT NULL, "site_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "siteredirect_site_id_source" to table: "site_redirects"
CREATE UNIQUE INDEX "siteredirect_site_id_source" ON "site_redirects" ("site_id", "source");
-- Create "site_sections" table
CREATE TABLE "site_sections" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NOT NULL, "description" character varying NULL, "icon" character varying NULL, "path" character varying NOT NULL, "condition" character varying NULL, "is_default" boolean NOT NULL DEFAULT false, "position" double precision NOT NULL DEFAULT 0, "site_id" character varying NOT NULL, "group_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "sitesection_site_id_position" to table: "site_sections"
CREATE INDEX "sitesection_site_id_position" ON "site_sections" ("site_id", "position");
-- Create "site_section_groups" table
CREATE TABLE "site_section_groups" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NOT NULL, "icon" character varying NULL, "position" double precision NOT NULL DEFAULT 0, "site_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "sitesectiongroup_site_id_position" to table: "site_section_groups"
CREATE INDEX "sitesectiongroup_site_id_position" ON "site_section_groups" ("site_id", "position");
-- Create "site_spaces" table
CREATE TABLE "site_spaces" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NULL, "path" character varying NOT NULL, "condition" character varying NULL, "is_default" boolean NOT NULL DEFAULT false, "position" double precision NOT NULL DEFAULT 0, "site_id" character varying NOT NULL, "section_id" character varying NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "sitespace_site_id_section_id_position" to table: "site_spaces"
CREATE INDEX "sitespace_site_id_section_id_position" ON "site_spaces" ("site_id", "section_id", "position");
-- Create index "sitespace_space_id" to table: "site_spaces"
CREATE INDEX "sitespace_space_id" ON "site_spaces" ("space_id");
-- Create "spaces" table
CREATE TABLE "spaces" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NOT NULL DEFAULT '', "emoji" character varying NOT NULL DEFAULT '', "icon_url" character varying NULL, "visibility" character varying NOT NULL DEFAULT 'private', "edit_mode" character varying NULL, "default_level" character varying NULL DEFAULT 'inherit', "language" character varying NULL, "position" double precision NOT NULL DEFAULT 0, "cr_seq" bigint NOT NULL DEFAULT 0, "deleted_at" timestamptz NULL, "parent_id" character varying NULL, "organization_id" character varying NOT NULL, "revision_id" character varying NULL, PRIMARY KEY ("id"));
-- Create index "space_deleted_at" to table: "spaces"
CREATE INDEX "space_deleted_at" ON "spaces" ("deleted_at");
-- Create index "space_organization_id_created_at" to table: "spaces"
CREATE INDEX "space_organization_id_created_at" ON "spaces" ("organization_id", "created_at");
-- Create index "space_organization_id_position" to table: "spaces"
CREATE INDEX "space_organization_id_position" ON "spaces" ("organization_id", "position") WHERE (parent_id IS NULL);
-- Create index "space_organization_id_visibility" to table: "spaces"
CREATE INDEX "space_organization_id_visibility" ON "spaces" ("organization_id", "visibility");
-- Create index "space_parent_id_position" to table: "spaces"
CREATE INDEX "space_parent_id_position" ON "spaces" ("parent_id", "position");
-- Create "teams" table
CREATE TABLE "teams" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NOT NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create "team_members" table
CREATE TABLE "team_members" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "role" character varying NOT NULL DEFAULT 'member', "team_id" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "teammember_team_id_user_id" to table: "team_members"
CREATE UNIQUE INDEX "teammember_team_id_user_id" ON "team_members" ("team_id", "user_id");
-- Create index "teammember_user_id" to table: "team_members"
CREATE INDEX "teammember_user_id" ON "team_members" ("user_id");
-- Create "translation_settings" table
CREATE TABLE "translation_settings" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "title" character varying NOT NULL, "languages" json NOT NULL, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "translationsettings_organization_id_created_at" to table: "translation_settings"
CREATE INDEX "translationsettings_organization_id_created_at" ON "translation_settings" ("organization_id", "created_at");
-- Create "users" table
CREATE TABLE "users" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "email" character varying NOT NULL, "display_name" character varying NOT NULL, "photo_url" character varying NULL, PRIMARY KEY ("id"));
-- Create index "users_email_key" to table: "users"
CREATE UNIQUE INDEX "users_email_key" ON "users" ("email");
-- Create "change_request_contributors" table
CREATE TABLE "change_request_contributors" ("change_request_id" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("change_request_id", "user_id"));
-- Create "comment_mentions" table
CREATE TABLE "comment_mentions" ("comment_id" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("comment_id", "user_id"));
-- Create "comment_reply_mentions" table
CREATE TABLE "comment_reply_mentions" ("comment_reply_id" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("comment_reply_id", "user_id"));
-- Create "integration_installation_spaces" table
CREATE TABLE "integration_installation_spaces" ("integration_installation_id" character varying NOT NULL, "space_id" character varying NOT NULL, PRIMARY KEY ("integration_installation_id", "space_id"));
-- Create "integration_installation_sites" table
CREATE TABLE "integration_installation_sites" ("integration_installation_id" character varying NOT NULL, "site_id" character varying NOT NULL, PRIMARY KEY ("integration_installation_id", "site_id"));
-- Modify "api_tokens" table
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_users_tokens" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "change_requests" table
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_revisions_revision" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, ADD CONSTRAINT "change_requests_revisions_revision_initial" FOREIGN KEY ("revision_initial_id") REFERENCES "revisions" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, ADD CONSTRAINT "change_requests_revisions_revision_merged" FOREIGN KEY ("revision_merged_id") REFERENCES "revisions" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "change_requests_revisions_revision_merged_ancestor" FOREIGN KEY ("revision_merged_ancestor_id") REFERENCES "revisions" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "change_requests_spaces_change_requests" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "change_requests_users_created_by" FOREIGN KEY ("created_by_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "collections" table
ALTER TABLE "collections" ADD CONSTRAINT "collections_organizations_collections" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "comments" table
ALTER TABLE "comments" ADD CONSTRAINT "comments_change_requests_comments" FOREIGN KEY ("change_request_id") REFERENCES "change_requests" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "comments_revisions_revision" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "comments_spaces_comments" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "comments_users_posted_by" FOREIGN KEY ("posted_by_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "comments_users_resolved_by" FOREIGN KEY ("resolved_by_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "comment_replies" table
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_comments_replies" FOREIGN KEY ("comment_id") REFERENCES "comments" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "comment_replies_users_posted_by" FOREIGN KEY ("posted_by_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "content_grants" table
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_collections_grants" FOREIGN KEY ("collection_id") REFERENCES "collections" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "content_grants_spaces_grants" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "content_grants_teams_grants" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "content_grants_users_grants" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "integrations" table
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_organizations_integrations" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "integration_installations" table
ALTER TABLE "integration_installations" ADD CONSTRAINT "integration_installations_integrations_installations" FOREIGN KEY ("integration_id") REFERENCES "integrations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "integration_installations_organizations_installations" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "invites" table
ALTER TABLE "invites" ADD CONSTRAINT "invites_collections_collection" FOREIGN KEY ("collection_id") REFERENCES "collections" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "invites_organizations_invites" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "invites_spaces_space" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "invites_users_created_by" FOREIGN KEY ("created_by_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "members" table
ALTER TABLE "members" ADD CONSTRAINT "members_organizations_members" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "members_users_memberships" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "open_api_specs" table
ALTER TABLE "open_api_specs" ADD CONSTRAINT "open_api_specs_open_api_spec_versions_last_version" FOREIGN KEY ("last_version_id") REFERENCES "open_api_spec_versions" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "open_api_specs_organizations_openapi_specs" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "open_api_spec_versions" table
ALTER TABLE "open_api_spec_versions" ADD CONSTRAINT "open_api_spec_versions_open_api_specs_versions" FOREIGN KEY ("spec_id") REFERENCES "open_api_specs" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "organizations" table
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_sites_default_site" FOREIGN KEY ("default_site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "reactions" table
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_comment_replies_reactions" FOREIGN KEY ("reply_id") REFERENCES "comment_replies" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "reactions_comments_reactions" FOREIGN KEY ("comment_id") REFERENCES "comments" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "reactions_users_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "revisions" table
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_change_requests_revisions" FOREIGN KEY ("change_request_id") REFERENCES "change_requests" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "revisions_spaces_revisions" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "revisions_users_created_by" FOREIGN KEY ("created_by_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "saml_providers" table
ALTER TABLE "saml_providers" ADD CONSTRAINT "saml_providers_organizations_saml_providers" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "saml_providers_teams_default_team" FOREIGN KEY ("default_team_id") REFERENCES "teams" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "share_links" table
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_sites_share_links" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "share_links_spaces_share_links" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "sites" table
ALTER TABLE "sites" ADD CONSTRAINT "sites_organizations_sites" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "site_redirects" table
ALTER TABLE "site_redirects" ADD CONSTRAINT "site_redirects_sites_redirects" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "site_sections" table
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_site_section_groups_sections" FOREIGN KEY ("group_id") REFERENCES "site_section_groups" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "site_sections_sites_sections" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "site_section_groups" table
ALTER TABLE "site_section_groups" ADD CONSTRAINT "site_section_groups_sites_section_groups" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "site_spaces" table
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_site_sections_site_spaces" FOREIGN KEY ("section_id") REFERENCES "site_sections" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "site_spaces_sites_site_spaces" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "site_spaces_spaces_site_spaces" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "spaces" table
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_collections_spaces" FOREIGN KEY ("parent_id") REFERENCES "collections" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "spaces_organizations_spaces" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "spaces_revisions_revision" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "teams" table
ALTER TABLE "teams" ADD CONSTRAINT "teams_organizations_teams" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "team_members" table
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_teams_members" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "team_members_users_team_memberships" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "translation_settings" table
ALTER TABLE "translation_settings" ADD CONSTRAINT "translation_settings_organizations_translation_settings" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "change_request_contributors" table
ALTER TABLE "change_request_contributors" ADD CONSTRAINT "change_request_contributors_change_request_id" FOREIGN KEY ("change_request_id") REFERENCES "change_requests" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "change_request_contributors_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "comment_mentions" table
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_comment_id" FOREIGN KEY ("comment_id") REFERENCES "comments" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "comment_mentions_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "comment_reply_mentions" table
ALTER TABLE "comment_reply_mentions" ADD CONSTRAINT "comment_reply_mentions_comment_reply_id" FOREIGN KEY ("comment_reply_id") REFERENCES "comment_replies" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "comment_reply_mentions_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "integration_installation_spaces" table
ALTER TABLE "integration_installation_spaces" ADD CONSTRAINT "integration_installation_spaces_integration_installation_id" FOREIGN KEY ("integration_installation_id") REFERENCES "integration_installations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "integration_installation_spaces_space_id" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Modify "integration_installation_sites" table
ALTER TABLE "integration_installation_sites" ADD CONSTRAINT "integration_installation_sites_integration_installation_id" FOREIGN KEY ("integration_installation_id") REFERENCES "integration_installations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "integration_installation_sites_site_id" FOREIGN KEY ("site_id") REFERENCES "sites" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- The search index, which the ent schema cannot describe (package search)
CREATE TABLE IF NOT EXISTS search_pages (
	space_id text NOT NULL,
	page_id text NOT NULL,
	organization_id text NOT NULL,
	version text NOT NULL,
	stored text NOT NULL,
	doc tsvector NOT NULL,
	PRIMARY KEY (space_id, page_id));
CREATE INDEX IF NOT EXISTS search_pages_doc ON search_pages USING gin (doc);
CREATE INDEX IF NOT EXISTS search_pages_organization ON search_pages (organization_id);

-- Create "api_tokens" table
CREATE TABLE `api_tokens` (`id` text NOT NULL, `created_at` datetime NOT NULL, `label` text NOT NULL, `token_hash` text NOT NULL, `last_used_at` datetime NULL, `expires_at` datetime NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `api_tokens_users_tokens` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "api_tokens_token_hash_key" to table: "api_tokens"
CREATE UNIQUE INDEX `api_tokens_token_hash_key` ON `api_tokens` (`token_hash`);
-- Create "change_requests" table
CREATE TABLE `change_requests` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `number` integer NOT NULL, `status` text NOT NULL DEFAULT ('open'), `subject` text NOT NULL DEFAULT (''), `merged_at` datetime NULL, `created_by_id` text NULL, `revision_id` text NOT NULL, `revision_initial_id` text NOT NULL, `revision_merged_ancestor_id` text NULL, `revision_merged_id` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `change_requests_users_created_by` FOREIGN KEY (`created_by_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `change_requests_revisions_revision` FOREIGN KEY (`revision_id`) REFERENCES `revisions` (`id`) ON DELETE NO ACTION, CONSTRAINT `change_requests_revisions_revision_initial` FOREIGN KEY (`revision_initial_id`) REFERENCES `revisions` (`id`) ON DELETE NO ACTION, CONSTRAINT `change_requests_revisions_revision_merged_ancestor` FOREIGN KEY (`revision_merged_ancestor_id`) REFERENCES `revisions` (`id`) ON DELETE SET NULL, CONSTRAINT `change_requests_revisions_revision_merged` FOREIGN KEY (`revision_merged_id`) REFERENCES `revisions` (`id`) ON DELETE SET NULL, CONSTRAINT `change_requests_spaces_change_requests` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "changerequest_space_id_number" to table: "change_requests"
CREATE UNIQUE INDEX `changerequest_space_id_number` ON `change_requests` (`space_id`, `number`);
-- Create index "changerequest_space_id_status" to table: "change_requests"
CREATE INDEX `changerequest_space_id_status` ON `change_requests` (`space_id`, `status`);
-- Create index "changerequest_revision_merged_id" to table: "change_requests"
CREATE UNIQUE INDEX `changerequest_revision_merged_id` ON `change_requests` (`revision_merged_id`);
-- Create "collections" table
CREATE TABLE `collections` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL DEFAULT (''), `description` text NULL, `default_level` text NULL DEFAULT ('inherit'), `position` real NOT NULL DEFAULT (0), `parent_id` text NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `collections_collections_children` FOREIGN KEY (`parent_id`) REFERENCES `collections` (`id`) ON DELETE CASCADE, CONSTRAINT `collections_organizations_collections` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "collection_organization_id_created_at" to table: "collections"
CREATE INDEX `collection_organization_id_created_at` ON `collections` (`organization_id`, `created_at`);
-- Create index "collection_parent_id_position" to table: "collections"
CREATE INDEX `collection_parent_id_position` ON `collections` (`parent_id`, `position`);
-- Create index "collection_organization_id_position" to table: "collections"
CREATE INDEX `collection_organization_id_position` ON `collections` (`organization_id`, `position`) WHERE parent_id IS NULL;
-- Create "comments" table
CREATE TABLE `comments` (`id` text NOT NULL, `page_id` text NULL, `page_hash` text NULL, `node_id` text NULL, `body` text NOT NULL, `status` text NOT NULL DEFAULT ('open'), `posted_at` datetime NOT NULL, `edited_at` datetime NULL, `resolved_at` datetime NULL, `change_request_id` text NULL, `revision_id` text NULL, `posted_by_id` text NULL, `resolved_by_id` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `comments_change_requests_comments` FOREIGN KEY (`change_request_id`) REFERENCES `change_requests` (`id`) ON DELETE CASCADE, CONSTRAINT `comments_revisions_revision` FOREIGN KEY (`revision_id`) REFERENCES `revisions` (`id`) ON DELETE SET NULL, CONSTRAINT `comments_users_posted_by` FOREIGN KEY (`posted_by_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `comments_users_resolved_by` FOREIGN KEY (`resolved_by_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `comments_spaces_comments` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "comment_space_id_change_request_id_posted_at" to table: "comments"
CREATE INDEX `comment_space_id_change_request_id_posted_at` ON `comments` (`space_id`, `change_request_id`, `posted_at`);
-- Create index "comment_change_request_id_posted_at" to table: "comments"
CREATE INDEX `comment_change_request_id_posted_at` ON `comments` (`change_request_id`, `posted_at`);
-- Create "comment_replies" table
CREATE TABLE `comment_replies` (`id` text NOT NULL, `body` text NOT NULL, `posted_at` datetime NOT NULL, `edited_at` datetime NULL, `comment_id` text NOT NULL, `posted_by_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `comment_replies_comments_replies` FOREIGN KEY (`comment_id`) REFERENCES `comments` (`id`) ON DELETE CASCADE, CONSTRAINT `comment_replies_users_posted_by` FOREIGN KEY (`posted_by_id`) REFERENCES `users` (`id`) ON DELETE SET NULL);
-- Create index "commentreply_comment_id_posted_at" to table: "comment_replies"
CREATE INDEX `commentreply_comment_id_posted_at` ON `comment_replies` (`comment_id`, `posted_at`);
-- Create "content_grants" table
CREATE TABLE `content_grants` (`id` text NOT NULL, `created_at` datetime NOT NULL, `role` text NOT NULL, `collection_id` text NULL, `space_id` text NULL, `team_id` text NULL, `user_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `content_grants_collections_grants` FOREIGN KEY (`collection_id`) REFERENCES `collections` (`id`) ON DELETE CASCADE, CONSTRAINT `content_grants_spaces_grants` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE, CONSTRAINT `content_grants_teams_grants` FOREIGN KEY (`team_id`) REFERENCES `teams` (`id`) ON DELETE CASCADE, CONSTRAINT `content_grants_users_grants` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "contentgrant_user_id" to table: "content_grants"
CREATE INDEX `contentgrant_user_id` ON `content_grants` (`user_id`);
-- Create index "contentgrant_team_id" to table: "content_grants"
CREATE INDEX `contentgrant_team_id` ON `content_grants` (`team_id`);
-- Create index "contentgrant_collection_id" to table: "content_grants"
CREATE INDEX `contentgrant_collection_id` ON `content_grants` (`collection_id`);
-- Create index "contentgrant_space_id" to table: "content_grants"
CREATE INDEX `contentgrant_space_id` ON `content_grants` (`space_id`);
-- Create "content_objects" table
CREATE TABLE `content_objects` (`id` text NOT NULL, `kind` text NOT NULL, `data` blob NOT NULL, `size` integer NOT NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create "integrations" table
CREATE TABLE `integrations` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `version` integer NOT NULL DEFAULT (1), `title` text NOT NULL, `description` text NOT NULL DEFAULT (''), `summary` text NULL, `target` text NOT NULL DEFAULT ('all'), `visibility` text NOT NULL DEFAULT ('private'), `verified` bool NOT NULL DEFAULT (false), `scopes` json NOT NULL, `categories` json NOT NULL, `icon` text NULL, `preview_images` json NOT NULL, `script` text NOT NULL, `secrets` json NOT NULL, `blocks` json NULL, `content_sources` json NULL, `configurations` json NULL, `external_links` json NULL, `content_security_policy` json NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `integrations_organizations_integrations` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "integrations_name_key" to table: "integrations"
CREATE UNIQUE INDEX `integrations_name_key` ON `integrations` (`name`);
-- Create "integration_installations" table
CREATE TABLE `integration_installations` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `status` text NOT NULL DEFAULT ('active'), `space_selection` text NOT NULL DEFAULT ('all'), `site_selection` text NOT NULL DEFAULT ('all'), `configuration` json NOT NULL, `external_ids` json NOT NULL, `integration_id` text NOT NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `integration_installations_integrations_installations` FOREIGN KEY (`integration_id`) REFERENCES `integrations` (`id`) ON DELETE CASCADE, CONSTRAINT `integration_installations_organizations_installations` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "integrationinstallation_integration_id_organization_id" to table: "integration_installations"
CREATE UNIQUE INDEX `integrationinstallation_integration_id_organization_id` ON `integration_installations` (`integration_id`, `organization_id`);
-- Create "invites" table
CREATE TABLE `invites` (`id` text NOT NULL, `created_at` datetime NOT NULL, `kind` text NOT NULL, `role` text NULL, `email` text NULL, `sso` bool NOT NULL DEFAULT (false), `accepted_at` datetime NULL, `space_id` text NULL, `collection_id` text NULL, `created_by_id` text NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `invites_spaces_space` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE, CONSTRAINT `invites_collections_collection` FOREIGN KEY (`collection_id`) REFERENCES `collections` (`id`) ON DELETE CASCADE, CONSTRAINT `invites_users_created_by` FOREIGN KEY (`created_by_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `invites_organizations_invites` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "invite_organization_id_created_at" to table: "invites"
CREATE INDEX `invite_organization_id_created_at` ON `invites` (`organization_id`, `created_at`);
-- Create "members" table
CREATE TABLE `members` (`id` text NOT NULL, `role` text NULL, `disabled` bool NOT NULL DEFAULT (false), `sso` bool NOT NULL DEFAULT (false), `joined_at` datetime NOT NULL, `last_seen_at` datetime NULL, `organization_id` text NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `members_organizations_members` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `members_users_memberships` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "member_organization_id_user_id" to table: "members"
CREATE UNIQUE INDEX `member_organization_id_user_id` ON `members` (`organization_id`, `user_id`);
-- Create index "member_user_id" to table: "members"
CREATE INDEX `member_user_id` ON `members` (`user_id`);
-- Create "open_api_specs" table
CREATE TABLE `open_api_specs` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `slug` text NOT NULL, `source_url` text NULL, `source_text` text NULL, `visibility` text NOT NULL DEFAULT ('private'), `processing_state` text NOT NULL DEFAULT ('pending'), `progress` integer NOT NULL DEFAULT (0), `last_processed_at` datetime NULL, `last_process_error_code` text NULL, `last_processed_errors` json NULL, `claimed_until` datetime NULL, `claimed_by` text NULL, `next_fetch_at` datetime NULL, `last_version_id` text NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `open_api_specs_open_api_spec_versions_last_version` FOREIGN KEY (`last_version_id`) REFERENCES `open_api_spec_versions` (`id`) ON DELETE SET NULL, CONSTRAINT `open_api_specs_organizations_openapi_specs` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "openapispec_organization_id_slug" to table: "open_api_specs"
CREATE UNIQUE INDEX `openapispec_organization_id_slug` ON `open_api_specs` (`organization_id`, `slug`);
-- Create index "openapispec_organization_id_created_at" to table: "open_api_specs"
CREATE INDEX `openapispec_organization_id_created_at` ON `open_api_specs` (`organization_id`, `created_at`);
-- Create index "openapispec_processing_state_claimed_until" to table: "open_api_specs"
CREATE INDEX `openapispec_processing_state_claimed_until` ON `open_api_specs` (`processing_state`, `claimed_until`);
-- Create index "openapispec_next_fetch_at" to table: "open_api_specs"
CREATE INDEX `openapispec_next_fetch_at` ON `open_api_specs` (`next_fetch_at`);
-- Create "open_api_spec_versions" table
CREATE TABLE `open_api_spec_versions` (`id` text NOT NULL, `created_at` datetime NOT NULL, `source_url` text NULL, `content` text NOT NULL, `digest` text NOT NULL, `spec_version` text NOT NULL, `operations` json NOT NULL, `spec_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `open_api_spec_versions_open_api_specs_versions` FOREIGN KEY (`spec_id`) REFERENCES `open_api_specs` (`id`) ON DELETE CASCADE);
-- Create index "openapispecversion_spec_id_created_at" to table: "open_api_spec_versions"
CREATE INDEX `openapispecversion_spec_id_created_at` ON `open_api_spec_versions` (`spec_id`, `created_at`);
-- Create "organizations" table
CREATE TABLE `organizations` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `hostname` text NULL, `type` text NOT NULL DEFAULT ('business'), `use_case` text NULL, `community_type` text NULL, `default_role` text NULL, `sso` bool NOT NULL DEFAULT (false), `ai` bool NOT NULL DEFAULT (false), `invite_links` bool NOT NULL DEFAULT (true), `plan` text NOT NULL DEFAULT ('enterprise_2024'), `email_domains` json NOT NULL, `logo_url` text NULL, `custom_hostname` text NULL, `default_site_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `organizations_sites_default_site` FOREIGN KEY (`default_site_id`) REFERENCES `sites` (`id`) ON DELETE SET NULL);
-- Create index "organizations_hostname_key" to table: "organizations"
CREATE UNIQUE INDEX `organizations_hostname_key` ON `organizations` (`hostname`);
-- Create index "organizations_custom_hostname_key" to table: "organizations"
CREATE UNIQUE INDEX `organizations_custom_hostname_key` ON `organizations` (`custom_hostname`);
-- Create "reactions" table
CREATE TABLE `reactions` (`id` text NOT NULL, `created_at` datetime NOT NULL, `emoji` text NOT NULL, `comment_id` text NULL, `reply_id` text NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `reactions_comments_reactions` FOREIGN KEY (`comment_id`) REFERENCES `comments` (`id`) ON DELETE CASCADE, CONSTRAINT `reactions_comment_replies_reactions` FOREIGN KEY (`reply_id`) REFERENCES `comment_replies` (`id`) ON DELETE CASCADE, CONSTRAINT `reactions_users_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "reaction_comment_user_emoji" to table: "reactions"
CREATE UNIQUE INDEX `reaction_comment_user_emoji` ON `reactions` (`comment_id`, `user_id`, `emoji`) WHERE reply_id IS NULL;
-- Create index "reaction_reply_user_emoji" to table: "reactions"
CREATE UNIQUE INDEX `reaction_reply_user_emoji` ON `reactions` (`reply_id`, `user_id`, `emoji`) WHERE comment_id IS NULL;
-- Create "revisions" table
CREATE TABLE `revisions` (`id` text NOT NULL, `created_at` datetime NOT NULL, `type` text NOT NULL, `parents` json NOT NULL, `pages_root` text NULL, `files_root` text NULL, `reusable_contents_root` text NULL, `message` text NULL, `change_request_id` text NULL, `created_by_id` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `revisions_change_requests_revisions` FOREIGN KEY (`change_request_id`) REFERENCES `change_requests` (`id`) ON DELETE CASCADE, CONSTRAINT `revisions_users_created_by` FOREIGN KEY (`created_by_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `revisions_spaces_revisions` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "revision_space_id_created_at" to table: "revisions"
CREATE INDEX `revision_space_id_created_at` ON `revisions` (`space_id`, `created_at`);
-- Create index "revision_change_request_id" to table: "revisions"
CREATE INDEX `revision_change_request_id` ON `revisions` (`change_request_id`);
-- Create "saml_providers" table
CREATE TABLE `saml_providers` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `label` text NOT NULL, `sso_url` text NULL, `entity_id` text NULL, `certificate` text NULL, `default_role` text NULL, `status` text NOT NULL DEFAULT ('pending'), `organization_id` text NOT NULL, `default_team_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `saml_providers_organizations_saml_providers` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `saml_providers_teams_default_team` FOREIGN KEY (`default_team_id`) REFERENCES `teams` (`id`) ON DELETE SET NULL);
-- Create index "samlprovider_organization_id_created_at" to table: "saml_providers"
CREATE INDEX `samlprovider_organization_id_created_at` ON `saml_providers` (`organization_id`, `created_at`);
-- Create "share_links" table
CREATE TABLE `share_links` (`id` text NOT NULL, `created_at` datetime NOT NULL, `key` text NOT NULL, `name` text NULL, `active` bool NOT NULL DEFAULT (true), `site_id` text NULL, `space_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `share_links_sites_share_links` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE, CONSTRAINT `share_links_spaces_share_links` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "share_links_key_key" to table: "share_links"
CREATE UNIQUE INDEX `share_links_key_key` ON `share_links` (`key`);
-- Create "sites" table
CREATE TABLE `sites` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `type` text NOT NULL DEFAULT ('basic'), `title` text NOT NULL, `hostname` text NULL, `basename` text NULL, `proxy_origin` text NULL, `visibility` text NOT NULL DEFAULT ('public'), `published` bool NOT NULL DEFAULT (false), `adaptive_content` bool NOT NULL DEFAULT (false), `adaptive_schema` json NULL, `adaptive_schema_updated_at` datetime NULL, `agents_context` text NOT NULL DEFAULT ('included'), `visitor_auth_private_key` text NULL, `visitor_auth_fallback_url` text NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `sites_organizations_sites` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "sites_hostname_key" to table: "sites"
CREATE UNIQUE INDEX `sites_hostname_key` ON `sites` (`hostname`);
-- Create index "site_organization_id_created_at" to table: "sites"
CREATE INDEX `site_organization_id_created_at` ON `sites` (`organization_id`, `created_at`);
-- Create "site_redirects" table
CREATE TABLE `site_redirects` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `source` text NOT NULL, `destination` json NOT NULL, `site_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `site_redirects_sites_redirects` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE);
-- Create index "siteredirect_site_id_source" to table: "site_redirects"
CREATE UNIQUE INDEX `siteredirect_site_id_source` ON `site_redirects` (`site_id`, `source`);
-- Create "site_sections" table
CREATE TABLE `site_sections` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `description` text NULL, `icon` text NULL, `path` text NOT NULL, `condition` text NULL, `is_default` bool NOT NULL DEFAULT (false), `position` real NOT NULL DEFAULT (0), `site_id` text NOT NULL, `group_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `site_sections_sites_sections` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE, CONSTRAINT `site_sections_site_section_groups_sections` FOREIGN KEY (`group_id`) REFERENCES `site_section_groups` (`id`) ON DELETE SET NULL);
-- Create index "sitesection_site_id_position" to table: "site_sections"
CREATE INDEX `sitesection_site_id_position` ON `site_sections` (`site_id`, `position`);
-- Create "site_section_groups" table
CREATE TABLE `site_section_groups` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `icon` text NULL, `position` real NOT NULL DEFAULT (0), `site_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `site_section_groups_sites_section_groups` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE);
-- Create index "sitesectiongroup_site_id_position" to table: "site_section_groups"
CREATE INDEX `sitesectiongroup_site_id_position` ON `site_section_groups` (`site_id`, `position`);
-- Create "site_spaces" table
CREATE TABLE `site_spaces` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NULL, `path` text NOT NULL, `condition` text NULL, `is_default` bool NOT NULL DEFAULT (false), `position` real NOT NULL DEFAULT (0), `site_id` text NOT NULL, `section_id` text NULL, `space_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `site_spaces_sites_site_spaces` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE, CONSTRAINT `site_spaces_site_sections_site_spaces` FOREIGN KEY (`section_id`) REFERENCES `site_sections` (`id`) ON DELETE CASCADE, CONSTRAINT `site_spaces_spaces_site_spaces` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "sitespace_site_id_section_id_position" to table: "site_spaces"
CREATE INDEX `sitespace_site_id_section_id_position` ON `site_spaces` (`site_id`, `section_id`, `position`);
-- Create index "sitespace_space_id" to table: "site_spaces"
CREATE INDEX `sitespace_space_id` ON `site_spaces` (`space_id`);
-- Create "spaces" table
CREATE TABLE `spaces` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL DEFAULT (''), `emoji` text NOT NULL DEFAULT (''), `icon_url` text NULL, `visibility` text NOT NULL DEFAULT ('private'), `edit_mode` text NULL, `default_level` text NULL DEFAULT ('inherit'), `language` text NULL, `position` real NOT NULL DEFAULT (0), `cr_seq` integer NOT NULL DEFAULT (0), `deleted_at` datetime NULL, `parent_id` text NULL, `organization_id` text NOT NULL, `revision_id` text NULL, PRIMARY KEY (`id`), CONSTRAINT `spaces_collections_spaces` FOREIGN KEY (`parent_id`) REFERENCES `collections` (`id`) ON DELETE SET NULL, CONSTRAINT `spaces_organizations_spaces` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE, CONSTRAINT `spaces_revisions_revision` FOREIGN KEY (`revision_id`) REFERENCES `revisions` (`id`) ON DELETE SET NULL);
-- Create index "space_organization_id_created_at" to table: "spaces"
CREATE INDEX `space_organization_id_created_at` ON `spaces` (`organization_id`, `created_at`);
-- Create index "space_parent_id_position" to table: "spaces"
CREATE INDEX `space_parent_id_position` ON `spaces` (`parent_id`, `position`);
-- Create index "space_organization_id_position" to table: "spaces"
CREATE INDEX `space_organization_id_position` ON `spaces` (`organization_id`, `position`) WHERE parent_id IS NULL;
-- Create index "space_deleted_at" to table: "spaces"
CREATE INDEX `space_deleted_at` ON `spaces` (`deleted_at`);
-- Create index "space_organization_id_visibility" to table: "spaces"
CREATE INDEX `space_organization_id_visibility` ON `spaces` (`organization_id`, `visibility`);
-- Create "teams" table
CREATE TABLE `teams` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `teams_organizations_teams` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create "team_members" table
CREATE TABLE `team_members` (`id` text NOT NULL, `created_at` datetime NOT NULL, `role` text NOT NULL DEFAULT ('member'), `team_id` text NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `team_members_teams_members` FOREIGN KEY (`team_id`) REFERENCES `teams` (`id`) ON DELETE CASCADE, CONSTRAINT `team_members_users_team_memberships` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create index "teammember_team_id_user_id" to table: "team_members"
CREATE UNIQUE INDEX `teammember_team_id_user_id` ON `team_members` (`team_id`, `user_id`);
-- Create index "teammember_user_id" to table: "team_members"
CREATE INDEX `teammember_user_id` ON `team_members` (`user_id`);
-- Create "translation_settings" table
CREATE TABLE `translation_settings` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `languages` json NOT NULL, `organization_id` text NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `translation_settings_organizations_translation_settings` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE CASCADE);
-- Create index "translationsettings_organization_id_created_at" to table: "translation_settings"
CREATE INDEX `translationsettings_organization_id_created_at` ON `translation_settings` (`organization_id`, `created_at`);
-- Create "users" table
CREATE TABLE `users` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `email` text NOT NULL, `display_name` text NOT NULL, `photo_url` text NULL, PRIMARY KEY (`id`));
-- Create index "users_email_key" to table: "users"
CREATE UNIQUE INDEX `users_email_key` ON `users` (`email`);
-- Create "change_request_contributors" table
CREATE TABLE `change_request_contributors` (`change_request_id` text NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`change_request_id`, `user_id`), CONSTRAINT `change_request_contributors_change_request_id` FOREIGN KEY (`change_request_id`) REFERENCES `change_requests` (`id`) ON DELETE CASCADE, CONSTRAINT `change_request_contributors_user_id` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create "comment_mentions" table
CREATE TABLE `comment_mentions` (`comment_id` text NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`comment_id`, `user_id`), CONSTRAINT `comment_mentions_comment_id` FOREIGN KEY (`comment_id`) REFERENCES `comments` (`id`) ON DELETE CASCADE, CONSTRAINT `comment_mentions_user_id` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create "comment_reply_mentions" table
CREATE TABLE `comment_reply_mentions` (`comment_reply_id` text NOT NULL, `user_id` text NOT NULL, PRIMARY KEY (`comment_reply_id`, `user_id`), CONSTRAINT `comment_reply_mentions_comment_reply_id` FOREIGN KEY (`comment_reply_id`) REFERENCES `comment_replies` (`id`) ON DELETE CASCADE, CONSTRAINT `comment_reply_mentions_user_id` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
-- Create "integration_installation_spaces" table
CREATE TABLE `integration_installation_spaces` (`integration_installation_id` text NOT NULL, `space_id` text NOT NULL, PRIMARY KEY (`integration_installation_id`, `space_id`), CONSTRAINT `integration_installation_spaces_integration_installation_id` FOREIGN KEY (`integration_installation_id`) REFERENCES `integration_installations` (`id`) ON DELETE CASCADE, CONSTRAINT `integration_installation_spaces_space_id` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create "integration_installation_sites" table
CREATE TABLE `integration_installation_sites` (`integration_installation_id` text NOT NULL, `site_id` text NOT NULL, PRIMARY KEY (`integration_installation_id`, `site_id`), CONSTRAINT `integration_installation_sites_integration_installation_id` FOREIGN KEY (`integration_installation_id`) REFERENCES `integration_installations` (`id`) ON DELETE CASCADE, CONSTRAINT `integration_installation_sites_site_id` FOREIGN KEY (`site_id`) REFERENCES `sites` (`id`) ON DELETE CASCADE);
-- The search index, which the ent schema cannot describe (package search)
CREATE TABLE IF NOT EXISTS search_pages (
	id INTEGER PRIMARY KEY,
	space_id TEXT NOT NULL,
	page_id TEXT NOT NULL,
	organization_id TEXT NOT NULL,
	version TEXT NOT NULL,
	scope TEXT NOT NULL,
	title TEXT NOT NULL,
	headings TEXT NOT NULL,
	body TEXT NOT NULL,
	stored TEXT NOT NULL,
	UNIQUE (space_id, page_id));
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(scope, title, headings, body,
	content = 'search_pages', content_rowid = 'id', tokenize = 'unicode61', prefix = '2 3');
CREATE TRIGGER IF NOT EXISTS search_pages_insert AFTER INSERT ON search_pages BEGIN INSERT INTO search_fts(rowid, scope, title, headings, body) VALUES (new.id, new.scope, new.title, new.headings, new.body); END;
CREATE TRIGGER IF NOT EXISTS search_pages_delete AFTER DELETE ON search_pages BEGIN INSERT INTO search_fts(search_fts, rowid, scope, title, headings, body) VALUES ('delete', old.id, old.scope, old.title, old.headings, old.body); END;
CREATE TRIGGER IF NOT EXISTS search_pages_update AFTER UPDATE ON search_pages BEGIN INSERT INTO search_fts(search_fts, rowid, scope, title, headings, body) VALUES ('delete', old.id, old.scope, old.title, old.headings, old.body); INSERT INTO search_fts(rowid, scope, title, headings, body) VALUES (new.id, new.scope, new.title, new.headings, new.body); END;

-- Modify "api_tokens" table
ALTER TABLE "api_tokens" ADD COLUMN "kind" character varying NOT NULL DEFAULT 'token', ADD COLUMN "method" character varying NULL, ADD COLUMN "user_agent" character varying NULL;
-- Create "sign_in_flows" table
CREATE TABLE "sign_in_flows" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "secret_hash" character varying NOT NULL, "email" character varying NULL, "provider" character varying NULL, "nonce" character varying NULL, "verifier" character varying NULL, "return_to" character varying NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "sign_in_flows_secret_hash_key" to table: "sign_in_flows"
CREATE UNIQUE INDEX "sign_in_flows_secret_hash_key" ON "sign_in_flows" ("secret_hash");
-- Create index "signinflow_expires_at" to table: "sign_in_flows"
CREATE INDEX "signinflow_expires_at" ON "sign_in_flows" ("expires_at");
-- Create "sign_in_replays" table
CREATE TABLE "sign_in_replays" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "key" character varying NOT NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "sign_in_replays_key_key" to table: "sign_in_replays"
CREATE UNIQUE INDEX "sign_in_replays_key_key" ON "sign_in_replays" ("key");
-- Create index "signinreplay_expires_at" to table: "sign_in_replays"
CREATE INDEX "signinreplay_expires_at" ON "sign_in_replays" ("expires_at");
-- Create "user_identities" table
CREATE TABLE "user_identities" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "issuer" character varying NOT NULL, "subject" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "user_identities_users_identities" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "useridentity_issuer_subject" to table: "user_identities"
CREATE UNIQUE INDEX "useridentity_issuer_subject" ON "user_identities" ("issuer", "subject");
-- Create index "useridentity_user_id" to table: "user_identities"
CREATE INDEX "useridentity_user_id" ON "user_identities" ("user_id");

-- Create "webhook_endpoints" table
CREATE TABLE "webhook_endpoints" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "url" character varying NOT NULL, "event_types" json NOT NULL, "active" boolean NOT NULL DEFAULT true, "description" character varying NOT NULL DEFAULT '', "secret" character varying NOT NULL, "disabled_reason" character varying NULL, "disabled_at" timestamptz NULL, "failures" bigint NOT NULL DEFAULT 0, "organization_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "webhook_endpoints_organizations_webhook_endpoints" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "webhookendpoint_organization_id_created_at" to table: "webhook_endpoints"
CREATE INDEX "webhookendpoint_organization_id_created_at" ON "webhook_endpoints" ("organization_id", "created_at");
-- Create "webhook_deliveries" table
CREATE TABLE "webhook_deliveries" ("id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "event_id" character varying NOT NULL, "event_type" character varying NOT NULL, "payload" text NOT NULL, "state" character varying NOT NULL DEFAULT 'pending', "next_attempt_at" timestamptz NULL, "redelivery_of" character varying NULL, "claimed_by" character varying NULL, "claimed_until" timestamptz NULL, "attempts" json NOT NULL, "endpoint_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "webhook_deliveries_webhook_endpoints_deliveries" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create index "webhookdelivery_created_at" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_created_at" ON "webhook_deliveries" ("created_at");
-- Create index "webhookdelivery_endpoint_id_created_at" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_endpoint_id_created_at" ON "webhook_deliveries" ("endpoint_id", "created_at");
-- Create index "webhookdelivery_state_next_attempt_at" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_state_next_attempt_at" ON "webhook_deliveries" ("state", "next_attempt_at");

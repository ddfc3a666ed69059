-- Modify "webhook_endpoints" table
ALTER TABLE "webhook_endpoints" ADD COLUMN "integration_id" character varying NULL, ADD CONSTRAINT "webhook_endpoints_integrations_webhook_endpoints" FOREIGN KEY ("integration_id") REFERENCES "integrations" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- Create index "webhookendpoint_integration_id" to table: "webhook_endpoints"
CREATE INDEX "webhookendpoint_integration_id" ON "webhook_endpoints" ("integration_id");
